import { getAddress, type Hex, toEventSelector, zeroHash } from 'viem';
import { type ProviderQuote, type QuoteResult, type StatusResult } from '../index';
import { InvalidQuoteSliceError } from '../invalid-quote-slice.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from '../testing/fake-provider-server.test-helper';
import { type Fixture, fixture } from '../testing/fixture.test-helper';
import { describeProviderAdapterContract } from '../testing/provider-adapter.contract';
import {
  FEE_RECIPIENT,
  NATIVE,
  quoteSlice,
  RECIPIENT,
  USDC,
  WALLET,
} from '../testing/quote-slice.test-helper';
import { RelayAdapter } from './relay.adapter';

const PREFIX = '/relay';
const REQUEST_ID = '0x6a1f9b0c4c8e2b3d7e5f4a39d0b8c7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0';
const CONTEXT = {
  provider: 'relay' as const,
  requestId: REQUEST_ID,
  originChainId: 42161,
  destinationChainId: 8453,
};
const never = () => new AbortController().signal;

describeProviderAdapterContract({
  name: 'relay',
  quoteRoute: { method: 'POST', path: `${PREFIX}/quote/v2` },
  make: (server, { timeoutMs }) =>
    new RelayAdapter({
      baseUrl: server.origin + PREFIX,
      apiKey: null,
      timeoutMs,
      failureGraceMs: 600_000,
      requestsPerMinute: 200,
    }),
  slice: () => quoteSlice(),
});

describe('RelayAdapter', () => {
  let server: FakeProviderServer;
  const adapter = (
    apiKey: string | null = 'relay-secret-key',
    settings: Partial<ConstructorParameters<typeof RelayAdapter>[0]> = {},
  ) =>
    new RelayAdapter({
      baseUrl: server.origin + PREFIX,
      apiKey,
      timeoutMs: 5000,
      failureGraceMs: 600_000,
      requestsPerMinute: 200,
      ...settings,
    });
  const quoted = (result: QuoteResult): ProviderQuote => {
    if (!result.ok) throw new Error(`expected a quote, got ${JSON.stringify(result.failure)}`);
    return result.quote;
  };
  const progressOf = (result: StatusResult) => {
    if (!result.ok) throw new Error(`expected progress, got ${JSON.stringify(result.failure)}`);
    return result.progress;
  };

  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  describe('quote', () => {
    it('sends the slice as a /quote/v2 body with the API key, and normalises approve + deposit', async () => {
      server.route('POST', `${PREFIX}/quote/v2`, {
        status: 200,
        body: fixture(__dirname, 'quote-erc20-approve.json'),
      });

      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));

      expect(server.received).toHaveLength(1);
      const [request] = server.received;
      expect(request.headers['x-api-key']).toBe('relay-secret-key');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual({
        user: WALLET,
        recipient: RECIPIENT,
        refundTo: WALLET,
        originChainId: 42161,
        destinationChainId: 8453,
        originCurrency: USDC.arbitrum,
        destinationCurrency: USDC.base,
        amount: '100000000',
        tradeType: 'EXACT_INPUT',
        slippageTolerance: '50',
      });
      const [approve, deposit] = fixture(__dirname, 'quote-erc20-approve.json').steps.map(
        (step: { items: { data: { to: string; data: string } }[] }) => step.items[0].data,
      );
      expect(quote).toEqual({
        provider: 'relay',
        sliceId: 'slice-1',
        expectedOutputRaw: 99958977n,
        minimumOutputRaw: 99459182n,
        inputUsd: 99.993101,
        outputUsd: 99.952074,
        // From details.expandedPriceImpact (execution, relay, app), not the deprecated `fees` (D13).
        feeUsd: expect.closeTo(0.001023 + 0.039996, 9),
        feeBreakdown: [
          { kind: 'gas', usd: 0.001023 },
          { kind: 'provider', usd: 0.039996 },
        ],
        lossUsd: 0.000004,
        etaSeconds: 4,
        calls: [
          {
            chainId: 42161,
            to: USDC.arbitrum,
            data: approve.data,
            value: 0n,
            gas: 55000n,
            kind: 'approve',
            approval: {
              token: USDC.arbitrum,
              spender: getAddress('0xaaaaaaae92cc1ceef79a038017889fdd26d23d4d'),
              amount: 100_000000n,
            },
          },
          { chainId: 42161, to: deposit.to, data: deposit.data, value: 0n, gas: 92000n, kind: 'deposit' },
        ],
        providerRequestId: REQUEST_ID,
        validUntil: null,
        trackingContext: CONTEXT,
        appFee: null,
      });
      expect(JSON.parse(JSON.stringify(quote.trackingContext))).toEqual(quote.trackingContext);
    });

    it('native input: one deposit carrying the value, no approval, no gas when Relay gives none', async () => {
      server.route('POST', `${PREFIX}/quote/v2`, {
        status: 200,
        body: fixture(__dirname, 'quote-native.json'),
      });
      const slice = quoteSlice({
        source: { chainId: 8453, token: NATIVE, amount: 50000000000000000n, decimals: 18 },
        target: { chainId: 42161, token: USDC.arbitrum, decimals: 6 },
      });

      const quote = quoted(await adapter(null).quote(slice, { signal: never() }));

      expect(server.received[0].headers['x-api-key']).toBeUndefined();
      expect(quote.calls).toEqual([
        {
          chainId: 8453,
          to: '0x4cd00e387622c35bddb9b4c962c136462338bc31',
          data: expect.stringMatching(/^0x58109c/),
          value: 50000000000000000n,
          gas: null,
          kind: 'deposit',
        },
      ]);
      expect(quote).toMatchObject({
        expectedOutputRaw: 180405716n,
        minimumOutputRaw: 179503687n,
        feeBreakdown: [
          { kind: 'gas', usd: 0.005243 },
          { kind: 'provider', usd: 0.062135 },
          { kind: 'app', usd: 0.180738 },
        ],
        lossUsd: 0.115844,
        etaSeconds: 12,
        trackingContext: { provider: 'relay', originChainId: 8453, destinationChainId: 42161 },
      });
    });

    it('passes the app fee through as appFees[{recipient, fee bps}]', async () => {
      server.route('POST', `${PREFIX}/quote/v2`, {
        status: 200,
        body: fixture(__dirname, 'quote-erc20-approve.json'),
      });
      const result = await adapter().quote(quoteSlice({ appFeeBps: 35, appFeeRecipient: FEE_RECIPIENT }), {
        signal: never(),
      });
      expect(server.received[0].body).toMatchObject({ appFees: [{ recipient: FEE_RECIPIENT, fee: '35' }] });
      // Relay credits the fee to an off-chain balance claimed through its API (docs /features/app-fees; D15).
      expect(result.ok && result.quote.appFee).toEqual({
        paidAs: 'offchain_balance',
        bps: 35,
        chainId: null,
        token: null,
        claim: 'POST /app-fees/{recipient}/claim',
      });
    });

    it('throws InvalidQuoteSliceError for an app fee without a recipient (our bug, not Relay behaviour)', async () => {
      await expect(
        adapter().quote(quoteSlice({ appFeeBps: 10 }), { signal: never() }),
      ).rejects.toBeInstanceOf(InvalidQuoteSliceError);
      expect(server.received).toHaveLength(0);
    });

    it('skips steps with no items and items already complete', async () => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      body.steps[0].items[0].status = 'complete';
      body.steps.push({ id: 'authorize', kind: 'signature', requestId: REQUEST_ID, items: [] });
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));
      expect(quote.calls.map((call) => call.kind)).toEqual(['deposit']);
    });

    it('prefers expandedPriceImpact to the deprecated fees, even when they disagree', async () => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      body.details.expandedPriceImpact.app = { usd: '-0.25' };
      body.fees.relayer.amountUsd = '9.99';
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));
      expect(quote.feeBreakdown).toEqual([
        { kind: 'gas', usd: 0.001023 },
        { kind: 'provider', usd: 0.039996 },
        { kind: 'app', usd: 0.25 },
      ]);
    });

    it('reads the deprecated fees only when expandedPriceImpact is absent (older answers)', async () => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      delete body.details.expandedPriceImpact;
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));
      expect(quote.feeBreakdown).toEqual([
        { kind: 'gas', usd: 0.011214 },
        { kind: 'provider', usd: 0.041019 },
      ]);
    });

    it('a gas of 0 on a step is unset, as relay-kit leaves a falsy gas out (viemWallet.ts)', async () => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      body.steps[1].items[0].data.gas = 0;
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      const calls = quoted(await adapter().quote(quoteSlice(), { signal: never() })).calls;
      expect(calls.map((call) => call.gas)).toEqual([55000n, null]);
    });

    describe("Relay's published examples (relayprotocol/relay-docs f0bbe935; fixtures/SOURCES.md)", () => {
      it('the /quote/v2 example (features/price-stabilization.mdx): approve + deposit, fees from expandedPriceImpact', async () => {
        const body = fixture(__dirname, 'docs-quote-v2-approve-deposit.json');
        server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
        const slice = quoteSlice({
          source: {
            chainId: 8453,
            token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
            amount: 100_000000n,
            decimals: 6,
          },
          target: { chainId: 42161, token: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', decimals: 6 },
        });
        const quote = quoted(await adapter().quote(slice, { signal: never() }));
        const requestId = '0x00180d75faabaabf3dcbbf5341aa6b17d8ce6df9ea71856892f8b2729c32c167';
        expect(quote).toMatchObject({
          expectedOutputRaw: 99950900n,
          minimumOutputRaw: 97951882n,
          etaSeconds: 2,
          providerRequestId: requestId,
          // execution 0.02294 + relay 0.009997; the deprecated fees.relayer says 0.072433 (sponsored costs too).
          feeBreakdown: [
            { kind: 'gas', usd: 0.02294 },
            { kind: 'provider', usd: 0.009997 },
          ],
          calls: [
            {
              kind: 'approve',
              gas: 73112n,
              approval: {
                spender: getAddress('0x4cd00e387622c35bddb9b4c962c136462338bc31'),
                amount: 100_000000n,
              },
            },
            { kind: 'deposit', to: '0x4cd00e387622c35bddb9b4c962c136462338bc31', gas: null, value: 0n },
          ],
        });
      });

      it.each([
        ['INVALID_INPUT_CURRENCY', 'route_unavailable'],
        ['NO_SWAP_ROUTES_FOUND', 'route_unavailable'],
        ['DESTINATION_TX_FAILED', 'route_unavailable'],
        ['SOLANA_TX_TOO_LARGE', 'route_unavailable'],
      ])('the handling-errors.mdx example %s (400) → %s', async (errorCode, reasonCode) => {
        const examples = fixture(__dirname, 'docs-quote-error-examples.json') as unknown as Fixture[];
        const body = examples.find((example) => example.errorCode === errorCode);
        server.route('POST', `${PREFIX}/quote/v2`, { status: 400, body });
        expect(await adapter().quote(quoteSlice(), { signal: never() })).toMatchObject({
          ok: false,
          failure: { reasonCode, providerCode: errorCode },
        });
      });
    });

    it('reads the requestId from check.endpoint when the steps do not carry it', async () => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      for (const step of body.steps) delete step.requestId;
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      expect(quoted(await adapter().quote(quoteSlice(), { signal: never() })).providerRequestId).toBe(
        REQUEST_ID,
      );
    });

    it.each([
      ['NO_QUOTES', 400, 'route_unavailable'],
      ['NO_SWAP_ROUTES_FOUND', 400, 'route_unavailable'],
      ['NO_INTERNAL_SWAP_ROUTES_FOUND', 400, 'route_unavailable'],
      ['UNSUPPORTED_ROUTE', 400, 'route_unavailable'],
      ['UNSUPPORTED_CHAIN', 400, 'route_unavailable'],
      ['UNSUPPORTED_CURRENCY', 400, 'route_unavailable'],
      ['INSUFFICIENT_LIQUIDITY', 400, 'route_unavailable'],
      ['ROUTE_TEMPORARILY_RESTRICTED', 400, 'route_unavailable'],
      ['CHAIN_DISABLED', 400, 'route_unavailable'],
      ['AMOUNT_TOO_LOW', 400, 'amount_too_low'],
      ['SWAP_IMPACT_TOO_HIGH', 400, 'route_unavailable'],
      ['UNAUTHORIZED', 401, 'provider_unavailable'],
      ['UNKNOWN_ERROR', 500, 'provider_unavailable'],
      ['SERVICE_UNAVAILABLE', 503, 'provider_unavailable'],
      ['PRICE_FETCH_FAILED', 503, 'provider_unavailable'],
      // "transient upstream infrastructure issues ... Retry with backoff", with a status the docs do not give.
      ['REQUEST_TIMED_OUT', 400, 'provider_unavailable'],
      ['RPC_HTTP_ERROR', 400, 'provider_unavailable'],
    ])('%s (%s) → %s', async (errorCode, status, reasonCode) => {
      server.route('POST', `${PREFIX}/quote/v2`, {
        status,
        body: { message: 'No routes found', errorCode, requestId: '0xabc' },
      });
      const result = await adapter().quote(quoteSlice(), { signal: never() });
      expect(result).toEqual({
        ok: false,
        failure: {
          provider: 'relay',
          reasonCode,
          reason: `relay answered ${status} ${errorCode}: No routes found`,
          httpStatus: status,
          providerCode: errorCode,
        },
      });
      expect(JSON.stringify(result)).not.toContain('relay-secret-key');
    });

    it.each<[string, (body: Fixture) => void]>([
      ['no details.currencyOut', (body) => delete body.details.currencyOut],
      ['a float minimumAmount', (body) => (body.details.currencyOut.minimumAmount = 99459182.5)],
      ['no steps', (body) => delete body.steps],
      [
        'no requestId anywhere',
        (body) => {
          for (const step of body.steps) {
            delete step.requestId;
            delete step.items[0].check;
          }
        },
      ],
      [
        'an approve step without approve calldata',
        (body) => (body.steps[0].items[0].data.data = '0xdeadbeef'),
      ],
      ['a step on another chain', (body) => (body.steps[1].items[0].data.chainId = 1)],
      ['a non-numeric value', (body) => (body.steps[1].items[0].data.value = '1e18')],
      ['only an approval', (body) => void body.steps.pop()],
    ])('%s → provider_unavailable', async (_label, breakIt) => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      breakIt(body);
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      const result = await adapter().quote(quoteSlice(), { signal: never() });
      expect(result).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 200 },
      });
    });

    it('a 429 `{message}` with Retry-After → provider_unavailable, the wait kept on the failure', async () => {
      // rk-api: 429 `{ message?: string }`. Relay documents no Retry-After on it (relay-docs handling-rate-limits.mdx
      // says back off exponentially), so this only proves one is kept when sent.
      server.route('POST', `${PREFIX}/quote/v2`, {
        status: 429,
        headers: { 'retry-after': '3' },
        body: { message: 'Rate limit exceeded' },
      });
      expect(await adapter().quote(quoteSlice(), { signal: never() })).toEqual({
        ok: false,
        failure: {
          provider: 'relay',
          reasonCode: 'provider_unavailable',
          reason: 'relay answered 429: Rate limit exceeded',
          httpStatus: 429,
          providerCode: null,
          retryAfterMs: 3000,
        },
      });
    });

    it('a signature step it cannot execute → route_unavailable', async () => {
      const body = fixture(__dirname, 'quote-erc20-approve.json');
      body.steps.unshift({
        id: 'authorize1',
        kind: 'signature',
        requestId: REQUEST_ID,
        items: [{ status: 'incomplete', data: { sign: { signatureKind: 'eip712' } } }],
      });
      server.route('POST', `${PREFIX}/quote/v2`, { status: 200, body });
      const result = await adapter().quote(quoteSlice(), { signal: never() });
      expect(result).toMatchObject({ ok: false, failure: { reasonCode: 'route_unavailable' } });
    });
  });

  describe('tracking', () => {
    it('polls before the source tx, at most once a second, and holds a failure for RELAY_FAILURE_GRACE_MS', () => {
      const relay = adapter(null, { failureGraceMs: 123_000 });
      expect(relay.tracking).toEqual({
        pollsBeforeSourceTx: true,
        minPollIntervalMs: 5000,
        failureGraceMs: 123_000,
        expectedFillSeconds: 60,
        // Followed from the deposit: the quote's minute of life, then 2 h for a refund (Relay publishes none).
        fillWindowMs: 60_000,
        refundWindowMs: 7_200_000,
      });
    });

    it('names no deposit in a receipt, even one with SpokePool and Swift events: it tracks by requestId', () => {
      const log = (topic0: Hex) => ({ address: USDC.base, topics: [topic0, zeroHash], data: zeroHash });
      expect(
        adapter().depositRefs([
          log(toEventSelector('OrderCreated(bytes32)')),
          log(
            toEventSelector(
              'FundsDeposited(bytes32,bytes32,uint256,uint256,uint256,uint256,uint32,uint32,uint32,bytes32,bytes32,bytes32,bytes)',
            ),
          ),
        ]),
      ).toEqual([]);
    });
  });

  describe('status', () => {
    const statusRoute = `${PREFIX}/intents/status/v3`;
    const status = (apiKey: string | null = null) =>
      adapter(apiKey).status(CONTEXT, { signal: never(), sourceTxHash: null });

    it.each(['waiting', 'depositing', 'pending', 'submitted', 'delayed', 'some-new-status'])(
      '%s → pending',
      async (providerStatus) => {
        server.route('GET', statusRoute, { status: 200, body: { status: providerStatus, txHashes: [] } });
        expect(progressOf(await status())).toEqual({ state: 'pending', providerStatus });
        expect(server.received[0].query.get('requestId')).toBe(REQUEST_ID);
      },
    );

    it("sends no more than this process's RELAY_REQUESTS_PER_MINUTE: the next is not sent and waits for room", async () => {
      server.route('GET', statusRoute, { status: 200, body: { status: 'pending', txHashes: [] } });
      const shared = adapter(null, { requestsPerMinute: 2 });
      const ask = () => shared.status(CONTEXT, { signal: never(), sourceTxHash: null });
      expect(progressOf(await ask())).toMatchObject({ state: 'pending' });
      expect(progressOf(await ask())).toMatchObject({ state: 'pending' });
      expect(await ask()).toMatchObject({
        ok: false,
        failure: {
          reasonCode: 'provider_unavailable',
          reason: expect.stringContaining('RELAY_REQUESTS_PER_MINUTE'),
          // Until the first of the two leaves the one-minute window.
          retryAfterMs: expect.any(Number),
        },
      });
      expect(server.received).toHaveLength(2);
    });

    it('ignores the deposit selector: the requestId already names the leg in a batch', async () => {
      server.route('GET', statusRoute, { status: 200, body: { status: 'pending', txHashes: [] } });
      await adapter(null).status(CONTEXT, {
        signal: never(),
        sourceTxHash: '0x9c2f54f2f1b0fb1ba9b9bdcb5d9b1e0c1a7e5d6c4b3a29180f7e6d5c4b3a2910',
        deposit: { index: 1, ref: '42' },
      });
      expect(server.received).toHaveLength(1);
      expect([...server.received[0].query.keys()]).toEqual(['requestId']);
    });

    it('success without an API key → filled with txHashes[0], amount unknown, no /requests/v3 call', async () => {
      server.route('GET', statusRoute, { status: 200, body: fixture(__dirname, 'status-success.json') });
      expect(progressOf(await status())).toEqual({
        state: 'filled',
        providerStatus: 'success',
        destinationTxHash: '0x1f2e3d4c5b6a79880796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
        actualOutputRaw: null,
      });
      expect(server.received).toHaveLength(1);
    });

    it('success with an API key → the actual amount and fill hash from /requests/v3', async () => {
      server.route('GET', statusRoute, { status: 200, body: fixture(__dirname, 'status-success.json') });
      server.route('GET', `${PREFIX}/requests/v3`, {
        status: 200,
        body: fixture(__dirname, 'requests-v3.json'),
      });
      expect(progressOf(await status('relay-secret-key'))).toEqual({
        state: 'filled',
        providerStatus: 'success',
        destinationTxHash: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdef0001',
        actualOutputRaw: 99961020n,
      });
      const record = server.received[1];
      expect(record.query.get('id')).toBe(REQUEST_ID);
      expect(record.headers['x-api-key']).toBe('relay-secret-key');
    });

    describe('a record without route.actual.destination', () => {
      const withoutDestination = () => {
        const requests = fixture(__dirname, 'requests-v3.json');
        delete requests.requests[0].data.route.actual.destination;
        requests.requests[0].data.route.actual.origin.outputCurrency.amount = '99000001';
        return requests;
      };

      it('same-chain: falls back to route.actual.origin.outputCurrency', async () => {
        server.route('GET', statusRoute, { status: 200, body: fixture(__dirname, 'status-success.json') });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body: withoutDestination() });
        const sameChain = { ...CONTEXT, destinationChainId: CONTEXT.originChainId };
        const result = await adapter().status(sameChain, { signal: never(), sourceTxHash: null });
        expect(progressOf(result)).toMatchObject({ actualOutputRaw: 99000001n });
      });

      it('cross-chain: never reads the origin side (another chain, often another token) → unknown', async () => {
        server.route('GET', statusRoute, { status: 200, body: fixture(__dirname, 'status-success.json') });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body: withoutDestination() });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({
          state: 'filled',
          actualOutputRaw: null,
        });
      });
    });

    it("the /requests/v3 record in Relay's migration guide (migrating-to-requests-v3.mdx): the actual amount", async () => {
      // The guide elides hashes ("0x1c0089..."), so the fill hash stays the status answer's.
      const record = fixture(__dirname, 'docs-requests-v3-record.json');
      server.route('GET', statusRoute, { status: 200, body: fixture(__dirname, 'status-success.json') });
      server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body: { requests: [record] } });
      const polygonToBase = { ...CONTEXT, originChainId: 137, destinationChainId: 8453 };
      const result = await adapter().status(polygonToBase, { signal: never(), sourceTxHash: null });
      expect(progressOf(result)).toMatchObject({
        state: 'filled',
        destinationTxHash: '0x1f2e3d4c5b6a79880796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
        actualOutputRaw: 10000000000n,
      });
    });

    it('a failing /requests/v3 leaves the fill standing with the amount unknown', async () => {
      server.route('GET', statusRoute, { status: 200, body: fixture(__dirname, 'status-success.json') });
      server.route('GET', `${PREFIX}/requests/v3`, { status: 500, body: { message: 'boom' } });
      expect(progressOf(await status('relay-secret-key'))).toMatchObject({
        state: 'filled',
        destinationTxHash: '0x1f2e3d4c5b6a79880796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
        actualOutputRaw: null,
      });
    });

    it('refund → refunded', async () => {
      const refundHash = '0x3333333333333333333333333333333333333333333333333333333333333333';
      server.route('GET', statusRoute, {
        status: 200,
        body: { status: 'refund', details: 'SLIPPAGE', txHashes: [refundHash], inTxHashes: [] },
      });
      expect(progressOf(await status())).toEqual({
        state: 'refunded',
        providerStatus: 'refund',
        refundTxHash: refundHash,
        reason: 'SLIPPAGE',
        // The status answer names no refund chain, and without a key there is no /requests/v3 to ask.
        refundChainId: null,
      });
      expect(server.received).toHaveLength(1);
    });

    describe('refund with an API key: the refund chain from /requests/v3', () => {
      const refundHash = '0x3333333333333333333333333333333333333333333333333333333333333333';
      const refundStatus = {
        status: 'refund',
        details: 'SLIPPAGE',
        inTxHashes: ['0x9c2f54f2f1b0fb1ba9b9bdcb5d9b1e0c1a7e5d6c4b3a29180f7e6d5c4b3a2910'],
        txHashes: [refundHash],
        originChainId: 42161,
        destinationChainId: 8453,
      };
      // requests-v3.json recast as a refund, with the fields Relay's UI reads for one (relay-kit
      // packages/ui/src/components/common/TransactionModal/steps/ErrorStep.tsx: data.outTxs[0].{txHash,chainId},
      // data.refundCurrencyData.currency.chainId).
      const refundRecord = (outTxs: unknown[], refundCurrencyChainId: number | null) => {
        const body = fixture(__dirname, 'requests-v3.json');
        const [request] = body.requests;
        request.status = 'refund';
        request.data.failReason = 'SLIPPAGE';
        request.data.outTxs = outTxs;
        request.data.refundCurrencyData =
          refundCurrencyChainId === null
            ? null
            : { currency: { chainId: refundCurrencyChainId, symbol: 'USDC' }, amount: '99800000' };
        return body;
      };

      it('the chain of the outTx carrying the refund hash (here the destination chain)', async () => {
        server.route('GET', statusRoute, { status: 200, body: refundStatus });
        server.route('GET', `${PREFIX}/requests/v3`, {
          status: 200,
          body: refundRecord(
            [
              { txHash: '0x4444444444444444444444444444444444444444444444444444444444444444', chainId: 1 },
              { txHash: refundHash, chainId: 8453, status: 'success' },
            ],
            42161,
          ),
        });
        expect(progressOf(await status('relay-secret-key'))).toEqual({
          state: 'refunded',
          providerStatus: 'refund',
          refundTxHash: refundHash,
          reason: 'SLIPPAGE',
          refundChainId: 8453,
          // The record names the refund currency's chain and symbol, but no address.
          refundToken: null,
        });
        expect(server.received[1].query.get('id')).toBe(REQUEST_ID);
        expect(server.received[1].headers['x-api-key']).toBe('relay-secret-key');
      });

      it('the refund token from refundCurrencyData.currency.address, never assumed to be the source token (N10)', async () => {
        const usdcArb = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
        const body = refundRecord([{ txHash: refundHash, chainId: 42161 }], 42161);
        body.requests[0].data.refundCurrencyData.currency.address = usdcArb;
        server.route('GET', statusRoute, { status: 200, body: refundStatus });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({
          refundChainId: 42161,
          refundToken: usdcArb,
        });
        body.requests[0].data.refundCurrencyData.currency.address =
          '0x0000000000000000000000000000000000000000';
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({
          refundToken: '0x0000000000000000000000000000000000000000',
        });
      });

      it("a refund whose status carries no reason takes the record's failReason (N9)", async () => {
        const { details: _dropped, ...noDetails } = refundStatus;
        server.route('GET', statusRoute, { status: 200, body: noDetails });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body: refundRecord([], 42161) });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({ reason: 'SLIPPAGE' });
      });

      it('no outTx: refundCurrencyData.currency.chainId', async () => {
        server.route('GET', statusRoute, { status: 200, body: refundStatus });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body: refundRecord([], 42161) });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({ refundChainId: 42161 });
      });

      it('no refund hash in the status: the first outTx gives hash and chain', async () => {
        server.route('GET', statusRoute, { status: 200, body: { ...refundStatus, txHashes: [] } });
        server.route('GET', `${PREFIX}/requests/v3`, {
          status: 200,
          body: refundRecord([{ txHash: refundHash, chainId: 42161 }], null),
        });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({
          refundTxHash: refundHash,
          refundChainId: 42161,
        });
      });

      it('a record that names no chain, or a failing /requests/v3, leaves the refund standing with the chain unknown', async () => {
        server.route('GET', statusRoute, { status: 200, body: refundStatus });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 200, body: refundRecord([], null) });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({
          state: 'refunded',
          refundTxHash: refundHash,
          refundChainId: null,
        });
        server.route('GET', `${PREFIX}/requests/v3`, { status: 500, body: { message: 'boom' } });
        expect(progressOf(await status('relay-secret-key'))).toMatchObject({
          state: 'refunded',
          refundChainId: null,
        });
      });
    });

    it('fallback → refunded: terminal, as relay-kit ends on it like refund (N8)', async () => {
      const refundHash = '0x5555555555555555555555555555555555555555555555555555555555555555';
      server.route('GET', statusRoute, {
        status: 200,
        body: { status: 'fallback', failReason: 'SOLVER_CAPACITY_EXCEEDED', txHashes: [refundHash] },
      });
      expect(progressOf(await status())).toEqual({
        state: 'refunded',
        providerStatus: 'fallback',
        refundTxHash: refundHash,
        reason: 'SOLVER_CAPACITY_EXCEEDED',
        refundChainId: null,
      });
    });

    it('failReason and refundFailReason are the reason, before details (N9)', async () => {
      server.route('GET', statusRoute, {
        status: 200,
        body: {
          status: 'failure',
          failReason: 'SOLVER_CAPACITY_EXCEEDED',
          refundFailReason: 'MANUAL_REFUND_REQUIRED',
          details: 'free text',
          txHashes: [],
        },
      });
      expect(progressOf(await status())).toMatchObject({
        state: 'failed',
        reason: 'SOLVER_CAPACITY_EXCEEDED; refund failed: MANUAL_REFUND_REQUIRED',
      });
      server.route('GET', statusRoute, {
        status: 200,
        body: { status: 'failure', failReason: 'N/A', details: 'free text', txHashes: [] },
      });
      expect(progressOf(await status())).toMatchObject({ reason: 'free text' });
    });

    it('failure → failed, with details as the reason', async () => {
      server.route('GET', statusRoute, {
        status: 200,
        body: { status: 'failure', details: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', txHashes: [] },
      });
      expect(progressOf(await status())).toEqual({
        state: 'failed',
        providerStatus: 'failure',
        reason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL',
      });
    });

    it('pending → failure → pending → refund (relay-kit websocketHandlers.ts): each poll says what Relay says now', async () => {
      // The adapter keeps no memory: a failure is not final here; the tracker holds it for tracking.failureGraceMs.
      const sequence = ['pending', 'failure', 'pending', 'refund'];
      const answers = [];
      for (const providerStatus of sequence) {
        server.route('GET', statusRoute, { status: 200, body: { status: providerStatus, txHashes: [] } });
        answers.push(progressOf(await status()).state);
      }
      expect(answers).toEqual(['pending', 'failed', 'pending', 'refunded']);
    });

    it.each([
      [404, 'not_found'],
      [429, 'provider_unavailable'],
      [500, 'provider_unavailable'],
    ])('HTTP %s → %s', async (httpStatus, reasonCode) => {
      server.route('GET', statusRoute, { status: httpStatus, body: { message: 'nope' } });
      expect(await status()).toMatchObject({ ok: false, failure: { reasonCode, httpStatus } });
    });

    it('a 429 with Retry-After → provider_unavailable, the wait kept on the failure', async () => {
      server.route('GET', statusRoute, {
        status: 429,
        headers: { 'retry-after': '5' },
        body: { message: 'Rate limit exceeded' },
      });
      expect(await status()).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 429, retryAfterMs: 5000 },
      });
    });

    it('a status without a status field → provider_unavailable', async () => {
      server.route('GET', statusRoute, { status: 200, body: { txHashes: [] } });
      expect(await status()).toMatchObject({ ok: false, failure: { reasonCode: 'provider_unavailable' } });
    });

    it("throws TrackingContextMismatchError for another provider's context (a wiring bug)", async () => {
      await expect(
        adapter().status(
          { provider: 'across', originChainId: 1, destinationChainId: 8453 },
          { signal: never(), sourceTxHash: null },
        ),
      ).rejects.toBeInstanceOf(TrackingContextMismatchError);
    });

    it('a slow status → provider_timeout', async () => {
      server.route('GET', statusRoute, 'hang');
      const result = await new RelayAdapter({
        baseUrl: server.origin + PREFIX,
        apiKey: null,
        timeoutMs: 150,
        failureGraceMs: 600_000,
        requestsPerMinute: 200,
      }).status(CONTEXT, { signal: never(), sourceTxHash: null });
      expect(result).toMatchObject({ ok: false, failure: { reasonCode: 'provider_timeout' } });
    });
  });
});
