import { join } from 'node:path';
import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import { createProviderAdapters } from '../create-provider-adapters';
import { type ProviderAdapter, type RoutableProvider } from '../provider-adapter.port';
import { type QuoteResult } from '../provider-quote';
import { loadProvidersConfig } from '../providers-config';
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from '../testing/fake-provider-server.test-helper';
import { type Fixture, fixture } from '../testing/fixture.test-helper';
import { NATIVE, quoteSlice, USDC } from '../testing/quote-slice.test-helper';

const RELAY_DEPOSITORY: Address = '0x4cd00e387622c35bddb9b4c962c136462338bc31';
const ATTACKER: Address = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0';
const never = () => new AbortController().signal;
const recorded = (provider: string, name: string): Fixture => fixture(join(__dirname, '..', provider), name);
const approveData = (spender: Address, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });

const arbitrumUsdc = quoteSlice(); // 100 USDC Arbitrum → Base, 0.5 %
const ethereumUsdc = quoteSlice({
  source: { chainId: 1, token: USDC.ethereum, amount: 250_000000n, decimals: 6, symbol: 'USDC' },
});
const arbitrumEth = quoteSlice({
  source: { chainId: 42161, token: NATIVE, amount: 40000000000000000n, decimals: 18 },
  target: { chainId: 10, token: '0x4200000000000000000000000000000000000006', decimals: 18 },
  slippageBps: 1,
});
const baseEth = quoteSlice({
  source: { chainId: 8453, token: NATIVE, amount: 50000000000000000n, decimals: 18 },
  target: { chainId: 42161, token: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', decimals: 18 },
});

/** Relay's recorded ERC-20 answer with the approval going to the depository, as Relay's docs show it. */
function relayAnswer(): Fixture {
  const body = recorded('relay', 'quote-erc20-approve.json');
  body.steps[0].items[0].data.data = approveData(RELAY_DEPOSITORY, 100_000000n);
  return body;
}

/**
 * Hostile provider answers on a real HTTP server, through the adapters the service builds
 * (createProviderAdapters): whatever the adapter parses, the calls must pass the calldata checks.
 */
describe('provider adapters behind the calldata checks', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  const adapters = (env: Record<string, string> = {}): Record<RoutableProvider, ProviderAdapter> =>
    createProviderAdapters(
      loadProvidersConfig({
        RELAY_BASE_URL: `${server.origin}/relay`,
        ACROSS_BASE_URL: `${server.origin}/across`,
        MAYAN_PRICE_URL: `${server.origin}/mayan-price`,
        MAYAN_EXPLORER_URL: `${server.origin}/mayan-explorer`,
        ...env,
      }),
      { randomBytes32: () => `0x${'5e'.repeat(32)}` },
    );
  const refusal = (result: QuoteResult) => {
    if (result.ok)
      throw new Error(`expected a refusal, got calls to ${result.quote.calls.map((c) => c.to).join(', ')}`);
    expect(result.failure.reasonCode).toBe('route_unavailable');
    expect(result.failure.reason).toMatch(/answer refused: /);
    return result.failure.reason;
  };

  describe('relay', () => {
    const quoteWith = (body: Fixture, env?: Record<string, string>) => {
      server.route('POST', '/relay/quote/v2', { status: 200, body });
      return adapters(env).relay.quote(arbitrumUsdc, { signal: never() });
    };

    it('passes the approval to and deposit on the published depository', async () => {
      const result = await quoteWith(relayAnswer());
      expect(result.ok).toBe(true);
    });

    it('refuses a deposit to another contract', async () => {
      const body = relayAnswer();
      body.steps[1].items[0].data.to = ATTACKER;
      expect(refusal(await quoteWith(body))).toContain(`goes to ${ATTACKER}`);
    });

    it('refuses an approval to another spender, unlimited or not', async () => {
      const body = relayAnswer();
      body.steps[0].items[0].data.data = approveData(ATTACKER, maxUint256);
      expect(refusal(await quoteWith(body)).toLowerCase()).toContain(`approves ${ATTACKER}`);
    });

    it('refuses value on a token deposit', async () => {
      const body = relayAnswer();
      body.steps[1].items[0].data.value = '1000000000000000000';
      expect(refusal(await quoteWith(body))).toContain('sends 1000000000000000000 of the native asset');
    });

    it('refuses a zero minimum output', async () => {
      const body = relayAnswer();
      body.details.currencyOut.minimumAmount = '0';
      expect(refusal(await quoteWith(body))).toContain('the minimum output 0 is below');
    });

    it('refuses a minimum above the expected output', async () => {
      const body = relayAnswer();
      body.details.currencyOut.minimumAmount = '99958978';
      expect(refusal(await quoteWith(body))).toContain('above the expected output');
    });

    it('follows RELAY_CONTRACTS instead of the defaults', async () => {
      // Arbitrum to Base: both chains listed, since a chain left out allows nothing at either end of a leg.
      const only = (address: Address) =>
        JSON.stringify({
          42161: { targets: [address], spenders: [address] },
          8453: { targets: [], spenders: [] },
        });
      refusal(await quoteWith(relayAnswer(), { RELAY_CONTRACTS: only(ATTACKER) }));
      expect((await quoteWith(relayAnswer(), { RELAY_CONTRACTS: only(RELAY_DEPOSITORY) })).ok).toBe(true);
      // Without the target chain the answer is refused (security review N-L3: what is served is what is read).
      const sourceOnly = JSON.stringify({
        42161: { targets: [RELAY_DEPOSITORY], spenders: [RELAY_DEPOSITORY] },
      });
      expect(refusal(await quoteWith(relayAnswer(), { RELAY_CONTRACTS: sourceOnly }))).toContain(
        'no relay contract is allowed on chain 8453, the target chain',
      );
      // PROVIDER_CHAINS narrows the published lists to the chains the deployment reads.
      expect((await quoteWith(relayAnswer(), { PROVIDER_CHAINS: '42161,8453' })).ok).toBe(true);
      expect(refusal(await quoteWith(relayAnswer(), { PROVIDER_CHAINS: '42161,1' }))).toContain(
        'no relay contract is allowed on chain 8453, the target chain',
      );
    });
  });

  describe('across', () => {
    const quoteWith = (body: Fixture, slice = ethereumUsdc) => {
      server.route('GET', '/across/swap/approval', { status: 200, body });
      return adapters().across.quote(slice, { signal: never() });
    };

    it("passes its recorded answers: the periphery's MaxUint256 approval (rebuilt at prepare) and a native deposit", async () => {
      expect((await quoteWith(recorded('across', 'swap-approval-erc20.json'))).ok).toBe(true);
      expect((await quoteWith(recorded('across', 'swap-approval-native.json'), arbitrumEth)).ok).toBe(true);
    });

    it('refuses a swapTx to another contract', async () => {
      const body = recorded('across', 'swap-approval-erc20.json');
      body.swapTx.to = ATTACKER;
      refusal(await quoteWith(body));
    });

    it('refuses an approval to another spender', async () => {
      const body = recorded('across', 'swap-approval-erc20.json');
      body.approvalTxns[0].data = approveData(ATTACKER, maxUint256);
      expect(refusal(await quoteWith(body)).toLowerCase()).toContain(`approves ${ATTACKER}`);
    });

    it('refuses a native deposit sending more than the amount', async () => {
      const body = recorded('across', 'swap-approval-native.json');
      body.swapTx.value = '40000000000000001';
      expect(refusal(await quoteWith(body, arbitrumEth))).toContain('not the amount 40000000000000000');
    });

    it('refuses a minimum far below the requested slippage', async () => {
      const body = recorded('across', 'swap-approval-erc20.json');
      body.minOutputAmount = '1';
      refusal(await quoteWith(body));
    });
  });

  describe('mayan', () => {
    const quoteWith = (body: Fixture, slice = arbitrumUsdc, env?: Record<string, string>) => {
      server.route('POST', '/mayan-price/quote', { status: 200, body });
      // A wrap-and-lock order asks for the router call that wraps the native input (mayan-swap-route.ts).
      server.route('GET', '/mayan-price/get-swap/evm', {
        status: 200,
        body: {
          swapRouterAddress: '0x4200000000000000000000000000000000000006',
          swapRouterCalldata: '0xd0e30db0',
        },
      });
      return adapters(env).mayan.quote(slice, { signal: never() });
    };

    it('passes the calls it builds on the published forwarder', async () => {
      expect((await quoteWith(recorded('mayan', 'quote-swift-erc20.json'))).ok).toBe(true);
    });

    it('refuses them when MAYAN_CONTRACTS lists another forwarder', async () => {
      const env = {
        MAYAN_CONTRACTS: JSON.stringify({ 42161: { targets: [ATTACKER], spenders: [ATTACKER] } }),
      };
      refusal(await quoteWith(recorded('mayan', 'quote-swift-erc20.json'), arbitrumUsdc, env));
    });

    it('refuses a zero minimum output', async () => {
      const body = recorded('mayan', 'quote-swift-erc20.json');
      for (const quote of body.quotes)
        Object.assign(quote, { minReceivedBaseUnits: '0', minAmountOut: 0, minAmountOut64: '0' });
      expect(refusal(await quoteWith(body))).toContain('the minimum output 0 is below');
    });

    it('passes a native wrap-and-lock order sending exactly the amount, refuses one for less', async () => {
      expect((await quoteWith(recorded('mayan', 'quote-swift-native.json'), baseEth)).ok).toBe(true);
      const body = recorded('mayan', 'quote-swift-native.json');
      Object.assign(body.quotes[0], { effectiveAmountIn64: '40000000000000000', effectiveAmountIn: 0.04 });
      expect(refusal(await quoteWith(body, baseEth))).toContain('not the amount 50000000000000000');
    });
  });
});
