import { ChainRegistry, readErc20Transfers } from '@svc/chains';
import {
  createProviderAdapters,
  type LegProgress,
  loadProvidersConfig,
  type ProviderAdapter,
  type ProviderQuote,
  type QuoteSlice,
  type RoutableProvider,
} from '@svc/providers';
import { type Address, type Hex, zeroAddress } from 'viem';
import { withScenario } from '../scenarios/sandbox-scenarios';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import {
  balanceOf,
  freshAddress,
  httpJson,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  waitUntil,
} from '../testing/sandbox-test-kit';

/**
 * The service's real provider adapters (libs/providers) against the running sandbox: each quote's calls are
 * executed on the local chains by a funded wallet, the provider fills on the destination chain, and the
 * adapter's status reports the exact amount the recipient received, which the chain confirms.
 */
describe('provider adapters on the sandbox', () => {
  let sandbox: RunningSandbox;
  let adapters: Record<RoutableProvider, ProviderAdapter>;
  let chains: ChainRegistry;

  beforeAll(async () => {
    sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
    adapters = createProviderAdapters(
      loadProvidersConfig({
        ...sandbox.manifest.env,
        ACROSS_TIMEOUT_MS: '600',
        MAYAN_TIMEOUT_MS: '600',
        RELAY_TIMEOUT_MS: '600',
      }),
    );
    chains = new ChainRegistry(sandbox.chains.chains);
  });
  afterAll(async () => {
    await chains?.close();
    await sandbox?.stop();
  });
  afterEach(() => sandbox.setFaults([]));

  function slice(
    user: number,
    from: [number, string],
    to: [number, string],
    recipient: Address,
    amount: bigint,
  ): QuoteSlice {
    const token = (chainId: number, symbol: string) => tokenAddress(sandbox, chainId, symbol);
    const decimals = (symbol: string) => (symbol === 'USDC' || symbol === 'USDT' ? 6 : 18);
    const wallet = sandbox.chains.accounts.users[user].address;
    return {
      sliceId: `slice-${user}`,
      wallet,
      recipient,
      refundTo: wallet,
      source: {
        chainId: from[0],
        token: token(from[0], from[1]),
        amount,
        decimals: decimals(from[1]),
        symbol: from[1],
      },
      target: { chainId: to[0], token: token(to[0], to[1]), decimals: decimals(to[1]), symbol: to[1] },
      slippageBps: 50,
      appFeeBps: 0,
      appFeeRecipient: null,
    };
  }

  async function quote(provider: RoutableProvider, s: QuoteSlice): Promise<ProviderQuote> {
    const result = await adapters[provider].quote(s, { signal: AbortSignal.timeout(5000) });
    if (!result.ok) throw new Error(`${provider} quote failed: ${JSON.stringify(result.failure)}`);
    return result.quote;
  }

  async function untilTerminal(
    provider: RoutableProvider,
    q: ProviderQuote,
    sourceTxHash: Hex,
  ): Promise<LegProgress> {
    return waitUntil(
      async () => {
        const result = await adapters[provider].status(q.trackingContext, {
          signal: AbortSignal.timeout(2000),
          sourceTxHash,
        });
        return result.ok
          ? result.progress
          : ({ state: 'pending', providerStatus: result.failure.reasonCode } as const);
      },
      (p) => p.state !== 'pending',
      15_000,
    );
  }

  it.each([
    ['relay', 0, [1, 'USDC'], [8453, 'USDC'], 250_000000n],
    ['across', 1, [42161, 'USDT'], [1, 'USDC'], 120_000000n],
    ['mayan', 2, [8453, 'WETH'], [42161, 'USDC'], 10n ** 17n],
    ['relay', 3, [1, 'ETH'], [42161, 'USDC'], 5n * 10n ** 16n],
    ['across', 4, [8453, 'USDC'], [42161, 'WETH'], 3000_000000n],
    ['mayan', 5, [42161, 'ETH'], [8453, 'USDT'], 2n * 10n ** 16n],
  ] as [RoutableProvider, number, [number, string], [number, string], bigint][])(
    '%s: user %i quotes, executes on chain and the recipient receives the exact reported amount',
    async (provider, user, from, to, amount) => {
      const recipient = freshAddress();
      const s = slice(user, from, to, recipient, amount);
      const q = await quote(provider, s);
      expect(q.calls.length).toBeGreaterThan(0);
      expect(q.calls.every((c) => c.chainId === from[0])).toBe(true);
      expect(q.minimumOutputRaw).toBeLessThanOrEqual(q.expectedOutputRaw);

      const sourceTxHash = await userOn(sandbox, user, from[0]).send(q.calls);
      const progress = await untilTerminal(provider, q, sourceTxHash);
      if (progress.state !== 'filled') throw new Error(`expected filled, got ${JSON.stringify(progress)}`);

      // Across's pool pays a WETH output to an EOA as ETH (SpokePool._unwrapwrappedNativeTokenTo; docs/sandbox.md S16).
      const paidAsEth = provider === 'across' && to[1] === 'WETH';
      const received = await balanceOf(sandbox, to[0], paidAsEth ? zeroAddress : s.target.token, recipient);
      if (paidAsEth) expect(await balanceOf(sandbox, to[0], s.target.token, recipient)).toBe(0n);
      expect(progress.actualOutputRaw).toBe(received);
      expect(received).toBe(q.expectedOutputRaw);
      expect(received).toBeGreaterThanOrEqual(q.minimumOutputRaw);
      if (s.target.token !== zeroAddress && !paidAsEth) {
        const transfers = await readErc20Transfers(chains.client(to[0]), {
          hash: progress.destinationTxHash!,
          token: s.target.token,
          to: recipient,
        });
        expect(transfers.reduce((sum, t) => sum + t.value, 0n)).toBe(received);
      }
    },
    30_000,
  );

  it('across with an app fee: the adapter reports what the recipient got, not the bridge leg /deposit shows (D8, S8)', async () => {
    const recipient = freshAddress();
    const feeRecipient = freshAddress();
    const s = {
      ...slice(1, [42161, 'USDC'], [1, 'USDC'], recipient, 50_000000n),
      appFeeBps: 25,
      appFeeRecipient: feeRecipient,
    };
    const q = await quote('across', s);
    const sourceTxHash = await userOn(sandbox, 1, 42161).send(q.calls);
    const progress = await untilTerminal('across', q, sourceTxHash);
    if (progress.state !== 'filled') throw new Error(`expected filled, got ${JSON.stringify(progress)}`);
    const received = await balanceOf(sandbox, 1, s.target.token, recipient);
    const fee = await balanceOf(sandbox, 1, s.target.token, feeRecipient);
    expect(fee).toBeGreaterThan(0n);
    expect(received).toBe(q.expectedOutputRaw);
    expect(progress.actualOutputRaw).toBe(received);
    // The indexer's outputAmount is the bridge leg the MulticallHandler received: the fee included.
    const record = await httpJson(`${sandbox.url}/across/deposit?depositTxnRef=${sourceTxHash}`);
    expect(record.body.deposit.outputAmount).toBe((received + fee).toString());
  }, 30_000);

  it('across quote scenario 911: swapTx.gas "0" reaches the wallet as no gas limit (D4, S4)', async () => {
    const q = await quote('across', slice(2, [1, 'USDC'], [8453, 'USDC'], freshAddress(), 5_000911n));
    expect(q.calls.find((c) => c.kind === 'deposit')?.gas).toBeNull();
  });

  it.each(['relay', 'across'] as RoutableProvider[])(
    '%s quote scenario 912: a 429 with Retry-After → provider_unavailable, the wait kept',
    async (provider) => {
      const result = await adapters[provider].quote(
        slice(0, [1, 'USDC'], [8453, 'USDC'], freshAddress(), 5_000912n),
        { signal: AbortSignal.timeout(5000) },
      );
      expect(result).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 429, retryAfterMs: 2000 },
      });
    },
  );

  it("across: the sandbox's quote carries refundPolicy, read as the leg's refund window (N15)", async () => {
    const q = await quote('across', slice(1, [42161, 'USDT'], [1, 'USDC'], freshAddress(), 20_000000n));
    // The sandbox's refund path: a bundle (1.5 h) and its challenge period (2 h) after the fill deadline.
    expect(q.trackingContext).toMatchObject({ provider: 'across', refundWindowMs: 3.5 * 3_600_000 });
  });

  it('relay: a refund fault ends the leg refunded and returns the deposit', async () => {
    sandbox.setFaults([{ provider: 'relay', refund: true }]);
    const s = slice(0, [8453, 'USDC'], [1, 'USDC'], freshAddress(), 10_000000n);
    const q = await quote('relay', s);
    const before = await balanceOf(sandbox, 8453, s.source.token, s.wallet);
    const progress = await untilTerminal('relay', q, await userOn(sandbox, 0, 8453).send(q.calls));
    expect(progress.state).toBe('refunded');
    expect(await balanceOf(sandbox, 8453, s.source.token, s.wallet)).toBe(before);
  }, 30_000);

  it("relay fallback (913): refunded, with Relay's failReason and the refund currency /requests/v3 names (N8, N9, N10)", async () => {
    const s = slice(1, [8453, 'USDC'], [1, 'USDC'], freshAddress(), withScenario(10_000000n, 'fallback'));
    const q = await quote('relay', s);
    const before = await balanceOf(sandbox, 8453, s.source.token, s.wallet);
    const progress = await untilTerminal('relay', q, await userOn(sandbox, 1, 8453).send(q.calls));
    expect(progress).toMatchObject({
      state: 'refunded',
      providerStatus: 'fallback',
      reason: 'SOLVER_CAPACITY_EXCEEDED',
      refundChainId: 8453,
      refundToken: s.source.token,
      refundTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await balanceOf(sandbox, 8453, s.source.token, s.wallet)).toBe(before);
  }, 30_000);

  it('mayan cancel (904): CANCELED before the refund transaction exists stays pending (N14), then refunded with it', async () => {
    const s = slice(2, [8453, 'USDC'], [42161, 'USDC'], freshAddress(), withScenario(10_000000n, 'cancel'));
    const q = await quote('mayan', s);
    const before = await balanceOf(sandbox, 8453, s.source.token, s.wallet);
    const sourceTxHash = await userOn(sandbox, 2, 8453).send(q.calls);
    const seen: LegProgress[] = [];
    const progress = await waitUntil(
      async () => {
        const result = await adapters.mayan.status(q.trackingContext, {
          signal: AbortSignal.timeout(2000),
          sourceTxHash,
        });
        if (result.ok) seen.push(result.progress);
        return result.ok ? result.progress : null;
      },
      (p) => p !== null && p.state !== 'pending',
      15_000,
    );
    // The sandbox holds the cancelled order before refunding it: the adapter read CANCELED and kept the leg pending.
    expect(seen).toContainEqual(expect.objectContaining({ state: 'pending', providerStatus: 'CANCELED' }));
    expect(progress).toMatchObject({
      state: 'refunded',
      providerStatus: 'CANCELED',
      refundTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await balanceOf(sandbox, 8453, s.source.token, s.wallet)).toBe(before);
  }, 30_000);

  it.each([
    ['relay', { httpStatus: 503 }, 'provider_unavailable'],
    ['across', { httpStatus: 500 }, 'provider_unavailable'],
    ['mayan', { httpStatus: 429 }, 'provider_unavailable'],
    ['across', { timeout: true }, 'provider_timeout'],
    ['relay', { latencyMs: 2000 }, 'provider_timeout'],
    ['mayan', { malformedJson: true }, 'provider_unavailable'],
  ] as [RoutableProvider, Record<string, unknown>, string][])(
    '%s fault %j → %s',
    async (provider, fault, reasonCode) => {
      sandbox.setFaults([{ provider, ...fault }]);
      const result = await adapters[provider].quote(
        slice(0, [1, 'USDC'], [8453, 'USDC'], freshAddress(), 1_000000n),
        {
          signal: AbortSignal.timeout(5000),
        },
      );
      expect(result.ok ? 'ok' : result.failure.reasonCode).toBe(reasonCode);
    },
  );

  it.each(['relay', 'across', 'mayan'] as RoutableProvider[])(
    '%s: route_unavailable for a token the sandbox refuses',
    async (provider) => {
      const s = slice(0, [1, 'USDC'], [8453, 'USDC'], freshAddress(), 1_000000n);
      sandbox.setFaults([{ provider, routeUnavailableTokens: [s.source.token] }]);
      const result = await adapters[provider].quote(s, { signal: AbortSignal.timeout(5000) });
      expect(result.ok ? 'ok' : result.failure.reasonCode).toBe('route_unavailable');
    },
  );

  it.each(['relay', 'across', 'mayan'] as RoutableProvider[])(
    '%s: same chain is refused before any request',
    async (provider) => {
      const result = await adapters[provider].quote(
        slice(0, [1, 'USDC'], [1, 'WETH'], freshAddress(), 1_000000n),
        {
          signal: AbortSignal.timeout(5000),
        },
      );
      expect(result.ok ? 'ok' : result.failure.reasonCode).toBe('same_chain_unsupported');
    },
  );
});
