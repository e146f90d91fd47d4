import {
  createProviderAdapters,
  loadProvidersConfig,
  type LegProgress,
  type ProviderAdapter,
  type QuoteSlice,
} from '@svc/providers';
import { type Address, type Hex } from 'viem';
import { withScenario } from '../scenarios/sandbox-scenarios';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import {
  balanceOf,
  freshAddress,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  waitUntil,
} from '../testing/sandbox-test-kit';

/**
 * The Mayan adapter (libs/providers) against the sandbox's Mayan: the custom refund address, Mayan's own
 * amount-too-small body, the referrer fee cap and the rate limit, each through the real quote and, where it
 * settles, the real chain.
 */
describe('mayan adapter on the sandbox', () => {
  let sandbox: RunningSandbox;
  let mayan: ProviderAdapter;

  beforeAll(async () => {
    sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
    mayan = createProviderAdapters(
      loadProvidersConfig({ ...sandbox.manifest.env, MAYAN_TIMEOUT_MS: '600' }),
    ).mayan;
  });
  afterAll(() => sandbox?.stop());

  const slice = (user: number, amount: bigint, overrides: Partial<QuoteSlice> = {}): QuoteSlice => {
    const wallet = sandbox.chains.accounts.users[user].address;
    return {
      sliceId: `mayan-${user}`,
      wallet,
      recipient: freshAddress(),
      refundTo: wallet,
      source: { chainId: 1, token: tokenAddress(sandbox, 1, 'USDC'), amount, decimals: 6, symbol: 'USDC' },
      target: { chainId: 8453, token: tokenAddress(sandbox, 8453, 'USDC'), decimals: 6, symbol: 'USDC' },
      slippageBps: 50,
      appFeeBps: 0,
      appFeeRecipient: null,
      ...overrides,
    };
  };
  const quote = (s: QuoteSlice) => mayan.quote(s, { signal: AbortSignal.timeout(5000) });
  const untilTerminal = (context: Parameters<ProviderAdapter['status']>[0], sourceTxHash: Hex) =>
    waitUntil(
      async (): Promise<LegProgress> => {
        const result = await mayan.status(context, { signal: AbortSignal.timeout(2000), sourceTxHash });
        return result.ok ? result.progress : { state: 'pending', providerStatus: result.failure.reasonCode };
      },
      (p) => p.state !== 'pending',
      15_000,
    );

  it('refundTo other than the wallet: the order names it as trader, and a refund reaches it (swift refund address)', async () => {
    const refundTo: Address = freshAddress();
    const s = slice(0, withScenario(30_000_000n, 'refund'), { refundTo });
    const result = await quote(s);
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    const sourceTx = await userOn(sandbox, 0, 1).send(result.quote.calls);
    const progress = await untilTerminal(result.quote.trackingContext, sourceTx);
    expect(progress).toMatchObject({ state: 'refunded', refundChainId: 1 });
    expect(await balanceOf(sandbox, 1, s.source.token, refundTo)).toBe(s.source.amount);
  }, 30_000);

  it('polls the explorer with its API key: the same adapter without the key is refused (issue 24 N4, S17)', async () => {
    const s = slice(2, 20_000_000n);
    const result = await quote(s);
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    const sourceTx = await userOn(sandbox, 2, 1).send(result.quote.calls);
    // With the manifest's key (MAYAN_API_KEY): the order is followed to its fill.
    const progress = await untilTerminal(result.quote.trackingContext, sourceTx);
    expect(progress).toMatchObject({ state: 'filled' });
    // Without it the sandbox's explorer answers 401, as a keyless poller at scale should not get through.
    const { MAYAN_API_KEY: _dropped, ...withoutKey } = sandbox.manifest.env;
    const keyless = createProviderAdapters(loadProvidersConfig(withoutKey)).mayan;
    const refused = await keyless.status(result.quote.trackingContext, {
      signal: AbortSignal.timeout(2000),
      sourceTxHash: sourceTx,
    });
    expect(refused).toMatchObject({
      ok: false,
      failure: { reasonCode: 'provider_unavailable', httpStatus: 401 },
    });
  }, 30_000);

  it('an app fee above the Swift V2 cap is asked and ordered as 100 bps, and the order fills', async () => {
    const s = slice(1, 50_000_000n, { appFeeBps: 150, appFeeRecipient: freshAddress() });
    const result = await quote(s);
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    const sourceTx = await userOn(sandbox, 1, 1).send(result.quote.calls);
    const progress = await untilTerminal(result.quote.trackingContext, sourceTx);
    expect(progress).toMatchObject({ state: 'filled', actualOutputRaw: result.quote.expectedOutputRaw });
  }, 30_000);

  it("a too-small amount → amount_too_low, from Mayan's documented AMOUNT_TOO_SMALL body", async () => {
    expect(await quote(slice(2, 100_000n))).toMatchObject({
      ok: false,
      failure: { reasonCode: 'amount_too_low', providerCode: 'AMOUNT_TOO_SMALL', httpStatus: 400 },
    });
  });

  it('quote scenario 912: a 429 with Retry-After → provider_unavailable, the wait kept', async () => {
    expect(await quote(slice(2, 5_000912n))).toMatchObject({
      ok: false,
      failure: { reasonCode: 'provider_unavailable', httpStatus: 429, retryAfterMs: 2000 },
    });
  });
});
