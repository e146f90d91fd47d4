import { encodeAbiParameters, encodeEventTopics, erc20Abi, type Hex } from 'viem';
import {
  type ProviderAdapter,
  type QuoteSlice,
  type ReceiptLog,
  type RoutableProvider,
} from '../provider-adapter.port';
import { type QuoteResult } from '../provider-quote';
import {
  type FakeProviderServer,
  type Reply,
  startFakeProviderServer,
} from './fake-provider-server.test-helper';

export interface ProviderAdapterHarness {
  name: RoutableProvider;
  /** Where this adapter's quote request lands on the fake server. */
  quoteRoute: { method: 'GET' | 'POST'; path: string };
  /** An adapter whose base URL(s) point at `server`. */
  make(server: FakeProviderServer, options: { timeoutMs: number }): ProviderAdapter;
  /** A slice this provider would quote. */
  slice(): QuoteSlice;
}

/** Long enough that a passing case never hits it; "promptly" means well under it. */
const SLOW = 10_000;

/**
 * The behaviour every ProviderAdapter shares (provider-adapter.port.ts): failures, never throws, for anything
 * the provider does wrong, decided the same way for all three.
 */
export function describeProviderAdapterContract(harness: ProviderAdapterHarness): void {
  describe(`ProviderAdapter contract: ${harness.name}`, () => {
    let server: FakeProviderServer;

    beforeAll(async () => {
      server = await startFakeProviderServer();
    });
    afterEach(() => server.reset());
    afterAll(() => server.close());

    const quoteWith = async (reply: Reply, timeoutMs = SLOW, signal = new AbortController().signal) => {
      server.route(harness.quoteRoute.method, harness.quoteRoute.path, reply);
      return harness.make(server, { timeoutMs }).quote(harness.slice(), { signal });
    };

    const failure = (result: QuoteResult) => {
      if (result.ok) throw new Error('expected a failure, got a quote');
      return result.failure;
    };

    it('refuses a same-chain slice before any request', async () => {
      const slice = harness.slice();
      const result = await harness.make(server, { timeoutMs: SLOW }).quote(
        { ...slice, target: { ...slice.target, chainId: slice.source.chainId } },
        {
          signal: new AbortController().signal,
        },
      );
      expect(failure(result)).toMatchObject({ provider: harness.name, reasonCode: 'same_chain_unsupported' });
      expect(server.received).toHaveLength(0);
    });

    it.each([429, 500, 502, 503])('%s → provider_unavailable with the status', async (status) => {
      const result = await quoteWith({ status, body: { message: 'try later' } });
      expect(failure(result)).toMatchObject({
        provider: harness.name,
        reasonCode: 'provider_unavailable',
        httpStatus: status,
      });
    });

    it('a 200 whose body is not JSON → provider_unavailable', async () => {
      const result = await quoteWith({ status: 200, raw: '{"steps": [' });
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: 200 });
    });

    it('a 200 whose JSON is not an object → provider_unavailable', async () => {
      const result = await quoteWith({ status: 200, body: [] });
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: 200 });
    });

    it('a body past the size bound → provider_unavailable, not read to the end', async () => {
      const result = await quoteWith({ status: 200, raw: `{"pad":"${'x'.repeat(3 * 1024 * 1024)}"}` });
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_unavailable' });
    });

    it('a dropped connection → provider_unavailable', async () => {
      const result = await quoteWith('drop');
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: null });
    });

    it('a server slower than the per-provider time-out → provider_timeout, promptly', async () => {
      const started = Date.now();
      const result = await quoteWith('hang', 150);
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_timeout', httpStatus: null });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('a server that stalls in the middle of the body → provider_timeout, promptly', async () => {
      const started = Date.now();
      const result = await quoteWith({ status: 200, stallAfter: '{"quotes": [' }, 150);
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_timeout' });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('a redirect is not followed (it would carry the key elsewhere) → provider_unavailable', async () => {
      const result = await quoteWith({
        status: 302,
        headers: { location: 'http://127.0.0.1:9/steal' },
        body: {},
      });
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: 302 });
    });

    it("a server slower than the caller's signal → provider_timeout, promptly", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const result = await quoteWith('hang', SLOW, controller.signal);
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_timeout' });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('a signal aborted before the call → provider_timeout', async () => {
      const result = await quoteWith({ status: 200, body: {} }, SLOW, AbortSignal.abort());
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_timeout' });
    });

    it('declares tracking traits the tracker can schedule with: whole, non-negative milliseconds', () => {
      const { tracking } = harness.make(server, { timeoutMs: SLOW });
      expect(typeof tracking.pollsBeforeSourceTx).toBe('boolean');
      for (const ms of [tracking.minPollIntervalMs, tracking.failureGraceMs]) {
        expect(Number.isSafeInteger(ms)).toBe(true);
        expect(ms).toBeGreaterThanOrEqual(0);
      }
    });

    it('names no deposit in a receipt without its events, and reads receipts without any request', () => {
      const adapter = harness.make(server, { timeoutMs: SLOW });
      expect(adapter.depositRefs([])).toEqual([]);
      expect(adapter.depositRefs([ERC20_TRANSFER_LOG, { ...ERC20_TRANSFER_LOG, topics: [] }])).toEqual([]);
      expect(server.received).toHaveLength(0);
    });

    it('a provider that is not listening → provider_unavailable', async () => {
      const closed = await startFakeProviderServer();
      await closed.close();
      const result = await harness
        .make(closed, { timeoutMs: SLOW })
        .quote(harness.slice(), { signal: new AbortController().signal });
      expect(failure(result)).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: null });
    });
  });
}

/** A USDC Transfer, as every ERC-20 deposit's receipt carries one: never a provider's deposit. */
const ERC20_TRANSFER_LOG: ReceiptLog = {
  address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  topics: encodeEventTopics({
    abi: erc20Abi,
    eventName: 'Transfer',
    args: {
      from: '0x7a16fF8270133F063aAb6C9977183D9e72835428',
      to: '0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE',
    },
  }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint256' }], [100_000000n]),
};
