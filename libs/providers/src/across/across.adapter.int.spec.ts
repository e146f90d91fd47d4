import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  maxUint256,
  pad,
  parseAbi,
} from 'viem';
import { type ProviderQuote, type QuoteResult, type StatusResult } from '../index';
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
import { type ReceiptLog } from '../provider-adapter.port';
import { AcrossAdapter } from './across.adapter';

// The SpokePool events written out independently of across-deposit-refs.ts, from across-protocol/contracts
// contracts/interfaces/V3SpokePoolInterface.sol (FundsDeposited; V3FundsDeposited under "LEGACY EVENTS").
const spokePoolAbi = parseAbi([
  'event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)',
  'event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)',
]);
const SPOKE_POOL: Address = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';
const b32 = (address: Address) => pad(address.toLowerCase() as Hex, { size: 32 });

/** A FundsDeposited log as the SpokePool emits it: indexed fields in the topics, the rest ABI-encoded. */
function fundsDeposited(depositId: bigint): ReceiptLog {
  return {
    address: SPOKE_POOL,
    topics: encodeEventTopics({
      abi: spokePoolAbi,
      eventName: 'FundsDeposited',
      args: { destinationChainId: 8453n, depositId, depositor: b32(WALLET) },
    }) as Hex[],
    data: encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint32' },
        { type: 'uint32' },
        { type: 'uint32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes' },
      ],
      [
        b32(USDC.ethereum),
        b32(USDC.base),
        250_000000n,
        249_621203n,
        1767225600,
        1767236400,
        0,
        b32(RECIPIENT),
        pad('0x', { size: 32 }),
        '0x',
      ],
    ),
  };
}

/** The legacy V3FundsDeposited, as the sandbox's AcrossSpokePool.sol emits it (uint32 depositId, addresses). */
function v3FundsDeposited(depositId: number): ReceiptLog {
  return {
    address: SPOKE_POOL,
    topics: encodeEventTopics({
      abi: spokePoolAbi,
      eventName: 'V3FundsDeposited',
      args: { destinationChainId: 8453n, depositId, depositor: WALLET },
    }) as Hex[],
    data: encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint32' },
        { type: 'uint32' },
        { type: 'uint32' },
        { type: 'address' },
        { type: 'address' },
        { type: 'bytes' },
      ],
      [
        USDC.ethereum,
        USDC.base,
        250_000000n,
        249_621203n,
        1767225600,
        1767236400,
        0,
        RECIPIENT,
        NATIVE,
        '0x',
      ],
    ),
  };
}

const usdcTransfer: ReceiptLog = {
  address: USDC.ethereum,
  topics: encodeEventTopics({
    abi: erc20Abi,
    eventName: 'Transfer',
    args: { from: WALLET, to: SPOKE_POOL },
  }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint256' }], [250_000000n]),
};

const PREFIX = '/api';
const DEPOSIT_TX = '0x5b8e0b0d0a8b7c9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d';
const CONTEXT = { provider: 'across' as const, originChainId: 1, destinationChainId: 8453 };
const PERIPHERY = '0x89415a82d909a7238d69094c3dd1dcc1acbda85c';
const never = () => new AbortController().signal;
const ethToBase = quoteSlice({
  source: { chainId: 1, token: USDC.ethereum, amount: 250_000000n, decimals: 6, symbol: 'USDC' },
  target: { chainId: 8453, token: USDC.base, decimals: 6, symbol: 'USDC' },
});

describeProviderAdapterContract({
  name: 'across',
  quoteRoute: { method: 'GET', path: `${PREFIX}/swap/approval` },
  make: (server, { timeoutMs }) =>
    new AcrossAdapter({
      baseUrl: server.origin + PREFIX,
      apiKey: null,
      integratorId: null,
      timeoutMs,
      minPollIntervalMs: 10_000,
    }),
  slice: () => ethToBase,
});

describe('AcrossAdapter', () => {
  let server: FakeProviderServer;
  const adapter = (
    auth: { apiKey: string | null; integratorId: string | null } = { apiKey: null, integratorId: null },
  ) =>
    new AcrossAdapter({
      baseUrl: server.origin + PREFIX,
      ...auth,
      timeoutMs: 5000,
      minPollIntervalMs: 10_000,
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
    it('sends the slice as /swap/approval query with Bearer + integratorId, and normalises approval + swapTx', async () => {
      const body = fixture(__dirname, 'swap-approval-erc20.json');
      server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });

      const slice = { ...ethToBase, appFeeBps: 10, appFeeRecipient: FEE_RECIPIENT };
      const quote = quoted(
        await adapter({ apiKey: 'across-secret', integratorId: '0xdead' }).quote(slice, { signal: never() }),
      );

      const [request] = server.received;
      expect(request.method).toBe('GET');
      expect(request.headers.authorization).toBe('Bearer across-secret');
      expect([...request.query.entries()]).toEqual([
        ['tradeType', 'exactInput'],
        ['amount', '250000000'],
        ['inputToken', USDC.ethereum],
        ['outputToken', USDC.base],
        ['originChainId', '1'],
        ['destinationChainId', '8453'],
        ['depositor', WALLET],
        ['recipient', RECIPIENT],
        ['refundAddress', WALLET],
        ['slippage', '0.005'],
        ['appFee', '0.001'],
        ['appFeeRecipient', FEE_RECIPIENT],
        ['integratorId', '0xdead'],
      ]);
      expect(quote).toEqual({
        provider: 'across',
        sliceId: 'slice-1',
        expectedOutputRaw: 249621203n,
        minimumOutputRaw: 249621203n,
        inputUsd: expect.closeTo(0.378761 / 0.001515188, 6),
        outputUsd: expect.closeTo(0.378761 / 0.001515188 - 0.378761, 6),
        feeUsd: expect.closeTo(0.128785 + 0.249976 + 0.775725, 9),
        feeBreakdown: [
          { kind: 'provider', usd: 0.128785 },
          { kind: 'app', usd: 0.249976 },
          { kind: 'gas', usd: 0.775725 },
        ],
        lossUsd: 0,
        etaSeconds: 2,
        calls: [
          {
            chainId: 1,
            to: USDC.ethereum,
            data: body.approvalTxns[0].data,
            value: 0n,
            gas: null,
            kind: 'approve',
            approval: { token: USDC.ethereum, spender: getAddress(PERIPHERY), amount: maxUint256 },
          },
          { chainId: 1, to: PERIPHERY, data: body.swapTx.data, value: 0n, gas: null, kind: 'deposit' },
        ],
        providerRequestId: 'ad5cb8d5-0e4a-4ad6-9a5e-2a27b8c3f8e1',
        validUntil: 1767226200000,
        trackingContext: CONTEXT,
        // Paid on the destination in the output token by the MulticallHandler (D15).
        appFee: {
          paidAs: 'destination_transfer',
          bps: slice.appFeeBps,
          chainId: 8453,
          token: slice.target.token,
          claim: null,
        },
      });
    });

    it("reads the answer's refundPolicy into the leg's tracking context (docs.across.to /introduction/refunds.mdx, N15)", async () => {
      const body = fixture(__dirname, 'swap-approval-erc20.json');
      const quoteWith = async (refundPolicy: unknown) => {
        server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body: { ...body, refundPolicy } });
        return quoted(await adapter().quote(ethToBase, { signal: never() })).trackingContext;
      };
      // The docs' two examples, verbatim in shape.
      expect(
        await quoteWith({
          supported: true,
          token: { chainId: 8453, address: USDC.base },
          refundAddress: { address: WALLET, chain: { chainId: 8453, name: 'base', displayName: 'Base' } },
          expectedRefundTimeMs: 1_800_000,
        }),
      ).toEqual({ ...CONTEXT, refundWindowMs: 1_800_000 });
      expect(
        await quoteWith({
          supported: false,
          reason: 'irreversible_rail',
          message: 'This route does not guarantee an automatic refund.',
        }),
      ).toEqual({ ...CONTEXT, refundUnsupported: 'irreversible_rail' });
      // Absent or unreadable: no terms (the leg keeps the provider's own window).
      expect(await quoteWith(undefined)).toEqual(CONTEXT);
      expect(await quoteWith({ supported: true, expectedRefundTimeMs: 'soon' })).toEqual(CONTEXT);
    });

    it('leaves appFee, appFeeRecipient, integratorId and Authorization out when not configured', async () => {
      server.route('GET', `${PREFIX}/swap/approval`, {
        status: 200,
        body: fixture(__dirname, 'swap-approval-erc20.json'),
      });
      await adapter().quote(ethToBase, { signal: never() });
      const [request] = server.received;
      expect(request.headers.authorization).toBeUndefined();
      for (const key of ['appFee', 'appFeeRecipient', 'integratorId'])
        expect(request.query.has(key)).toBe(false);
    });

    it('native input without approvals: swapTx alone, with its value and gas', async () => {
      const body = fixture(__dirname, 'swap-approval-native.json');
      server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });
      const slice = quoteSlice({
        source: { chainId: 42161, token: NATIVE, amount: 40000000000000000n, decimals: 18 },
        target: { chainId: 10, token: '0x4200000000000000000000000000000000000006', decimals: 18 },
        slippageBps: 1,
      });
      const quote = quoted(await adapter().quote(slice, { signal: never() }));
      expect(server.received[0].query.get('slippage')).toBe('0.0001');
      expect(quote.calls).toEqual([
        {
          chainId: 42161,
          to: body.swapTx.to,
          data: body.swapTx.data,
          value: 40000000000000000n,
          gas: 143211n,
          kind: 'deposit',
        },
      ]);
      expect(quote).toMatchObject({
        expectedOutputRaw: 39993900000000000n,
        feeBreakdown: [
          { kind: 'provider', usd: 0.022063 },
          { kind: 'gas', usd: 0.005895 },
        ],
        etaSeconds: 3,
      });
    });

    it.each<[string, unknown]>([
      ['"0"', '0'],
      ['0', 0],
      ['"-1"', '-1'],
    ])(
      'swapTx.gas %s is unset, never a zero gas limit for the wallet (toolkit 9c840105)',
      async (_label, gas) => {
        const body = fixture(__dirname, 'swap-approval-native.json');
        body.swapTx.gas = gas;
        server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });
        const slice = quoteSlice({
          source: { chainId: 42161, token: NATIVE, amount: 40000000000000000n, decimals: 18 },
          target: { chainId: 10, token: '0x4200000000000000000000000000000000000006', decimals: 18 },
        });
        const [deposit] = quoted(await adapter().quote(slice, { signal: never() })).calls;
        expect(deposit).toMatchObject({ kind: 'deposit', gas: null });
      },
    );

    it('never sends refundOnOrigin: Across picks origin (B2B, A2B) or destination (B2A, A2A) itself', async () => {
      server.route('GET', `${PREFIX}/swap/approval`, {
        status: 200,
        body: fixture(__dirname, 'swap-approval-erc20.json'),
      });
      await adapter().quote(ethToBase, { signal: never() });
      const [request] = server.received;
      expect(request.query.has('refundOnOrigin')).toBe(false);
      expect(request.query.get('refundAddress')).toBe(WALLET);
    });

    it('a positive swap impact is reported as loss, separate from fees', async () => {
      const body = fixture(__dirname, 'swap-approval-erc20.json');
      body.fees.total.details.swapImpact.amountUsd = '0.731';
      server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });
      expect(quoted(await adapter().quote(ethToBase, { signal: never() })).lossUsd).toBe(0.731);
    });

    it.each([
      ['ROUTE_NOT_ENABLED', 400, 'route_unavailable'],
      ['SWAP_LIQUIDITY_INSUFFICIENT', 400, 'route_unavailable'],
      ['SWAP_QUOTE_UNAVAILABLE', 400, 'route_unavailable'],
      ['AMOUNT_TOO_LOW', 400, 'amount_too_low'],
      ['AMOUNT_TOO_HIGH', 400, 'route_unavailable'],
      ['INVALID_PARAM', 400, 'route_unavailable'],
      ['UPSTREAM_RPC_ERROR', 502, 'provider_unavailable'],
      ['UPSTREAM_HTTP_ERROR', 502, 'provider_unavailable'],
      ['UPSTREAM_GATEWAY_TIMEOUT', 504, 'provider_unavailable'],
      ['UNEXPECTED_ERROR', 500, 'provider_unavailable'],
    ])('%s (%s) → %s', async (code, status, reasonCode) => {
      server.route('GET', `${PREFIX}/swap/approval`, {
        status,
        body: {
          type: 'AcrossApiError',
          code,
          status,
          message: 'Bridge amount 1 is too low to cover bridge fees 2',
          id: 'x1',
        },
      });
      const result = await adapter({ apiKey: 'across-secret', integratorId: null }).quote(ethToBase, {
        signal: never(),
      });
      expect(result).toEqual({
        ok: false,
        failure: {
          provider: 'across',
          reasonCode,
          reason: `across answered ${status} ${code}: Bridge amount 1 is too low to cover bridge fees 2`,
          httpStatus: status,
          providerCode: code,
        },
      });
      expect(JSON.stringify(result)).not.toContain('across-secret');
    });

    it.each([
      // getSwapQuoteUnavailableError passes an upstream code on with status 400 unless it is UPSTREAM_HTTP_ERROR or
      // UPSTREAM_RPC_ERROR (across-protocol/frontend api/_errors.ts): the 50X codes are transient whatever the status.
      ['UPSTREAM_GATEWAY_TIMEOUT', 400],
      ['UNEXPECTED_ERROR', 400],
    ])('%s with a %s → provider_unavailable', async (code, status) => {
      server.route('GET', `${PREFIX}/swap/approval`, {
        status,
        body: {
          type: 'AcrossApiError',
          code,
          status,
          message: 'No swap quotes currently available',
          id: 'x2',
        },
      });
      expect(await adapter().quote(ethToBase, { signal: never() })).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: status, providerCode: code },
      });
    });

    it('an unknown token: 404 without a code (TokenNotFoundError) → route_unavailable', async () => {
      // api/_errors.ts TokenNotFoundError: AcrossApiError with status 404 and no code; toJSON drops `code: undefined`.
      server.route('GET', `${PREFIX}/swap/approval`, {
        status: 404,
        body: {
          type: 'AcrossApiError',
          status: 404,
          message: `Unable to find tokenDetails for address: ${USDC.base}, on chain with id: 1`,
          id: 'x3',
        },
      });
      expect(await adapter().quote(ethToBase, { signal: never() })).toEqual({
        ok: false,
        failure: {
          provider: 'across',
          reasonCode: 'route_unavailable',
          reason: `across answered 404: Unable to find tokenDetails for address: ${USDC.base}, on chain with id: 1`,
          httpStatus: 404,
          providerCode: null,
        },
      });
    });

    it('a 429 with Retry-After → provider_unavailable, the wait kept on the failure', async () => {
      server.route('GET', `${PREFIX}/swap/approval`, {
        status: 429,
        headers: { 'retry-after': '12' },
        body: { type: 'AcrossApiError', status: 429, message: 'Too many requests', id: 'x4' },
      });
      expect(await adapter().quote(ethToBase, { signal: never() })).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 429, retryAfterMs: 12_000 },
      });
    });

    it('a 429 without Retry-After carries no wait', async () => {
      server.route('GET', `${PREFIX}/swap/approval`, { status: 429, raw: 'Too Many Requests' });
      const result = await adapter().quote(ethToBase, { signal: never() });
      expect(result).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 429 },
      });
      expect(result.ok || 'retryAfterMs' in result.failure).toBe(false);
    });

    describe("Across's published /swap/approval examples (frontend docs/api-docs-openapi.yaml, bdcf46ce)", () => {
      // fixtures/openapi-swap-approval-*.json: the property-level `example:` values of the 200, 400 and 4XX schemas,
      // assembled as they stand (fixtures/SOURCES.md). The 200 is a B2A route (USDC on Optimism → ETH on Arbitrum).
      const optimismUsdcToArbitrumEth = quoteSlice({
        source: {
          chainId: 10,
          token: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
          amount: 1_000000n,
          decimals: 6,
        },
        target: { chainId: 42161, token: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', decimals: 18 },
      });

      it('the 200 as published is refused: its calldata is elided ("0xad5425c6…a4d353...")', async () => {
        const body = fixture(__dirname, 'openapi-swap-approval-example.json');
        server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });
        expect(await adapter().quote(optimismUsdcToArbitrumEth, { signal: never() })).toMatchObject({
          ok: false,
          failure: { reasonCode: 'provider_unavailable', reason: expect.stringContaining('swapTx.data') },
        });
      });

      it('the 200 with its calldata completed: amounts, gas, ETA and id; no expiry named', async () => {
        const body = fixture(__dirname, 'openapi-swap-approval-example.json');
        body.swapTx.data = body.swapTx.data.replace(/\.+$/, '');
        server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });
        const quote = quoted(await adapter().quote(optimismUsdcToArbitrumEth, { signal: never() }));
        expect(quote).toMatchObject({
          expectedOutputRaw: 263466241499732n,
          minimumOutputRaw: 260831579075100n,
          etaSeconds: 3,
          providerRequestId: '6pl4c-1754347045980-2353645c0fb7',
          // No quoteExpiryTimestamp in the example; the server sends one (api/swap/_utils.ts).
          validUntil: null,
          calls: [{ chainId: 10, to: body.swapTx.to, value: 0n, gas: 122554n, kind: 'deposit' }],
        });
      });

      it.each(['openapi-swap-approval-400-example.json', 'openapi-swap-approval-4xx-example.json'])(
        '%s → route_unavailable INVALID_PARAM',
        async (name) => {
          const body = fixture(__dirname, name);
          server.route('GET', `${PREFIX}/swap/approval`, { status: body.status, body });
          expect(await adapter().quote(ethToBase, { signal: never() })).toMatchObject({
            ok: false,
            failure: { reasonCode: 'route_unavailable', httpStatus: 400, providerCode: 'INVALID_PARAM' },
          });
        },
      );
    });

    it.each<[string, (body: Fixture) => void]>([
      ['no swapTx', (body) => delete body.swapTx],
      ['no expectedOutputAmount', (body) => delete body.expectedOutputAmount],
      ['a numeric minOutputAmount', (body) => (body.minOutputAmount = 249621203)],
      ['an approval that is not approve calldata', (body) => (body.approvalTxns[0].data = '0x12345678')],
      ['a swapTx on the destination chain', (body) => (body.swapTx.chainId = 8453)],
      ['a swapTx without a target', (body) => delete body.swapTx.to],
    ])('%s → provider_unavailable', async (_label, breakIt) => {
      const body = fixture(__dirname, 'swap-approval-erc20.json');
      breakIt(body);
      server.route('GET', `${PREFIX}/swap/approval`, { status: 200, body });
      expect(await adapter().quote(ethToBase, { signal: never() })).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 200 },
      });
    });
  });

  describe('tracking', () => {
    it('waits for the deposit tx, polls no faster than ACROSS_MIN_POLL_INTERVAL_MS, takes a failure as final, follows a leg through its refund path', () => {
      const across = new AcrossAdapter({
        baseUrl: server.origin + PREFIX,
        apiKey: null,
        integratorId: null,
        timeoutMs: 5000,
        minPollIntervalMs: 12_345,
      });
      expect(across.tracking).toEqual({
        pollsBeforeSourceTx: false,
        minPollIntervalMs: 12_345,
        failureGraceMs: 0,
        expectedFillSeconds: 60,
        // Followed until the deposit's fillDeadline (else its confirmation + 2 h) plus the refund path (issue 24 N2).
        fillWindowMs: 2 * 3_600_000,
        refundWindowMs: 7 * 3_600_000,
      });
    });
  });

  describe('depositRefs', () => {
    it('reads the depositId of each FundsDeposited, in log order, as base 10, skipping other logs', () => {
      // A uint256 depositId past 2^53: unsafeDeposit ids are hashes, so no number may carry them.
      const big = 2n ** 255n + 12345n;
      expect(
        adapter().depositRefs([usdcTransfer, fundsDeposited(3174204n), usdcTransfer, fundsDeposited(big)]),
      ).toEqual(['3174204', big.toString(10)]);
    });

    it('reads the legacy V3FundsDeposited the sandbox emits, alongside FundsDeposited', () => {
      expect(adapter().depositRefs([v3FundsDeposited(7), fundsDeposited(8n), v3FundsDeposited(0)])).toEqual([
        '7',
        '8',
        '0',
      ]);
    });

    it('a log with the deposit topic0 but no indexed fields is not a SpokePool deposit', () => {
      const truncated = { ...fundsDeposited(9n), topics: fundsDeposited(9n).topics.slice(0, 1) };
      expect(adapter().depositRefs([truncated, fundsDeposited(10n)])).toEqual(['10']);
    });
  });

  describe('status', () => {
    const statusOf = (sourceTxHash: `0x${string}` | null = DEPOSIT_TX) =>
      adapter({ apiKey: 'across-secret', integratorId: null }).status(CONTEXT, {
        signal: never(),
        sourceTxHash,
      });
    const statusBody = (status: string, extra: Record<string, unknown> = {}) => ({
      ...fixture(__dirname, 'deposit-status-filled.json'),
      fillTx: null,
      fillTxnRef: null,
      status,
      ...extra,
    });

    it.each(['pending', 'slowFillRequested', 'expired', 'deposit-pending'])(
      '%s → pending',
      async (status) => {
        server.route('GET', `${PREFIX}/deposit/status`, { status: 200, body: statusBody(status) });
        expect(progressOf(await statusOf())).toEqual({ state: 'pending', providerStatus: status });
        const [request] = server.received;
        expect(request.query.get('depositTxnRef')).toBe(DEPOSIT_TX);
        expect(request.headers.authorization).toBe('Bearer across-secret');
      },
    );

    it.each(['filled', 'slowFilled'])(
      '%s → filled with fillTxnRef and the /deposit outputAmount',
      async (status) => {
        server.route('GET', `${PREFIX}/deposit/status`, {
          status: 200,
          body: { ...fixture(__dirname, 'deposit-status-filled.json'), status },
        });
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: fixture(__dirname, 'deposit.json') });
        expect(progressOf(await statusOf())).toEqual({
          state: 'filled',
          providerStatus: status,
          destinationTxHash: '0x8888888888888888888888888888888888888888888888888888888888888888',
          actualOutputRaw: 249621203n,
        });
        expect(server.received[1].query.get('depositTxnRef')).toBe(DEPOSIT_TX);
      },
    );

    it('filled without fillTxnRef falls back to fillTx', async () => {
      server.route('GET', `${PREFIX}/deposit/status`, {
        status: 200,
        body: { ...fixture(__dirname, 'deposit-status-filled.json'), fillTxnRef: null },
      });
      server.route('GET', `${PREFIX}/deposit`, { status: 200, body: fixture(__dirname, 'deposit.json') });
      expect(progressOf(await statusOf())).toMatchObject({
        destinationTxHash: '0x7777777777777777777777777777777777777777777777777777777777777777',
      });
    });

    it('a destination swap makes the received amount unknown (outputAmount is only the bridge leg)', async () => {
      const deposit = fixture(__dirname, 'deposit.json');
      deposit.deposit.swapOutputToken = '0x4200000000000000000000000000000000000006';
      deposit.deposit.swapOutputTokenAmount = '81234000000000000';
      server.route('GET', `${PREFIX}/deposit/status`, {
        status: 200,
        body: fixture(__dirname, 'deposit-status-filled.json'),
      });
      server.route('GET', `${PREFIX}/deposit`, { status: 200, body: deposit });
      expect(progressOf(await statusOf())).toMatchObject({ state: 'filled', actualOutputRaw: null });
    });

    describe('an app fee paid through the MulticallHandler (D8)', () => {
      // The deposit pays the handler outputAmount; the handler pays the fee, then drains the rest to the recipient
      // (frontend api/_dexes/utils.ts buildExactInputBridgeTokenMessage, calculateAppFee). Encoded here as
      // api/_multicall-handler.ts does, independently of across-app-fee.ts.
      const handler = '0x924a9f036260DdD5808007E1AA95f08eD08aA569';
      const feeTo = getAddress(FEE_RECIPIENT.toLowerCase());
      const withFee = (fee: bigint) => {
        const deposit = fixture(__dirname, 'deposit.json');
        deposit.deposit.recipient = handler;
        deposit.deposit.message = encodeAbiParameters(
          [
            {
              type: 'tuple',
              components: [
                {
                  name: 'calls',
                  type: 'tuple[]',
                  components: [
                    { name: 'target', type: 'address' },
                    { name: 'callData', type: 'bytes' },
                    { name: 'value', type: 'uint256' },
                  ],
                },
                { name: 'fallbackRecipient', type: 'address' },
              ],
            },
          ],
          [
            {
              calls: [
                {
                  target: USDC.base,
                  callData: encodeFunctionData({
                    abi: erc20Abi,
                    functionName: 'transfer',
                    args: [feeTo, fee],
                  }),
                  value: 0n,
                },
                {
                  target: getAddress(handler.toLowerCase()),
                  callData: encodeFunctionData({
                    abi: parseAbi(['function drainLeftoverTokens(address token, address destination)']),
                    args: [USDC.base, RECIPIENT],
                  }),
                  value: 0n,
                },
              ],
              fallbackRecipient: NATIVE,
            },
          ],
        );
        return deposit;
      };

      it('the delivered amount is outputAmount less the fee the message pays', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, {
          status: 200,
          body: fixture(__dirname, 'deposit-status-filled.json'),
        });
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: withFee(250_000n) });
        expect(progressOf(await statusOf())).toMatchObject({
          state: 'filled',
          actualOutputRaw: 249621203n - 250_000n,
        });
      });

      it('a message it cannot read leaves the amount unknown rather than overstated', async () => {
        const deposit = fixture(__dirname, 'deposit.json');
        deposit.deposit.message = '0x1234';
        server.route('GET', `${PREFIX}/deposit/status`, {
          status: 200,
          body: fixture(__dirname, 'deposit-status-filled.json'),
        });
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: deposit });
        expect(progressOf(await statusOf())).toMatchObject({ state: 'filled', actualOutputRaw: null });
      });

      it('failed actions: the fee transfer reverted with the rest, so all of outputAmount was drained', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, {
          status: 200,
          body: { ...fixture(__dirname, 'deposit-status-filled.json'), actionsSucceeded: false },
        });
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: withFee(250_000n) });
        expect(progressOf(await statusOf())).toMatchObject({ actualOutputRaw: 249621203n });
      });
    });

    it('a failing /deposit leaves the fill standing with the amount unknown', async () => {
      server.route('GET', `${PREFIX}/deposit/status`, {
        status: 200,
        body: fixture(__dirname, 'deposit-status-filled.json'),
      });
      server.route('GET', `${PREFIX}/deposit`, { status: 503, body: {} });
      expect(progressOf(await statusOf())).toMatchObject({ state: 'filled', actualOutputRaw: null });
    });

    it('refunded → refunded with depositRefundTxnRef', async () => {
      const refund = '0x4444444444444444444444444444444444444444444444444444444444444444';
      server.route('GET', `${PREFIX}/deposit/status`, {
        status: 200,
        body: statusBody('refunded', { depositRefundTxHash: refund, depositRefundTxnRef: refund }),
      });
      expect(progressOf(await statusOf())).toEqual({
        state: 'refunded',
        providerStatus: 'refunded',
        refundTxHash: refund,
        reason: null,
        // "refunded on the originChain" (frontend docs/api-docs-openapi.yaml): the answer's originChainId.
        refundChainId: 1,
      });
    });

    it('404 DepositNotFoundException → pending not_indexed (a fresh deposit)', async () => {
      server.route('GET', `${PREFIX}/deposit/status`, {
        status: 404,
        body: {
          error: 'DepositNotFoundException',
          message: 'Deposit not found given the provided constraints',
        },
      });
      expect(progressOf(await statusOf())).toEqual({ state: 'pending', providerStatus: 'not_indexed' });
    });

    it('another 404 → not_found', async () => {
      server.route('GET', `${PREFIX}/deposit/status`, { status: 404, body: { message: 'Cannot GET' } });
      expect(await statusOf()).toMatchObject({
        ok: false,
        failure: { reasonCode: 'not_found', httpStatus: 404 },
      });
    });

    it('no deposit hash yet → not_found without a request', async () => {
      expect(await statusOf(null)).toMatchObject({ ok: false, failure: { reasonCode: 'not_found' } });
      expect(server.received).toHaveLength(0);
    });

    describe('several deposits in one transaction (a batch)', () => {
      const leg = (deposit: { index: number; ref: string | null } | null) =>
        adapter().status(CONTEXT, { signal: never(), sourceTxHash: DEPOSIT_TX, deposit });
      const filledAt = (depositId: string) => ({
        ...fixture(__dirname, 'deposit-status-filled.json'),
        depositId,
      });

      it('sends index on /deposit/status and /deposit', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, { status: 200, body: filledAt('3174204') });
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: fixture(__dirname, 'deposit.json') });
        expect(progressOf(await leg({ index: 1, ref: '3174204' }))).toMatchObject({ state: 'filled' });
        expect(server.received).toHaveLength(2);
        for (const request of server.received) {
          expect(request.query.get('depositTxnRef')).toBe(DEPOSIT_TX);
          expect(request.query.get('index')).toBe('1');
        }
      });

      it('index without a ref (a CCTP or OFT leg names no depositId) is trusted as it is', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, { status: 200, body: statusBody('pending') });
        expect(progressOf(await leg({ index: 2, ref: null }))).toEqual({
          state: 'pending',
          providerStatus: 'pending',
        });
        expect(server.received).toHaveLength(1);
        expect(server.received[0].query.get('index')).toBe('2');
      });

      it('no selector: no index (the indexer defaults to 0), as before', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, { status: 200, body: statusBody('pending') });
        await statusOf();
        expect(server.received[0].query.has('index')).toBe(false);
      });

      it('the deposit at that index is another one → asks by originChainId + depositId, for status and amount', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, (request) => ({
          status: 200,
          body: request.query.has('depositTxnRef')
            ? statusBody('pending', { depositId: '3174203' })
            : filledAt('3174204'),
        }));
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: fixture(__dirname, 'deposit.json') });
        expect(progressOf(await leg({ index: 0, ref: '3174204' }))).toMatchObject({
          state: 'filled',
          actualOutputRaw: 249621203n,
        });
        const [byIndex, byId, record] = server.received;
        expect(byIndex.query.get('index')).toBe('0');
        for (const request of [byId, record]) {
          expect(Object.fromEntries(request.query)).toEqual({ originChainId: '1', depositId: '3174204' });
        }
      });

      it("an index past the transaction's deposits (IndexParamOutOfRangeException) → asks by depositId", async () => {
        server.route('GET', `${PREFIX}/deposit/status`, (request) =>
          request.query.has('index')
            ? {
                status: 400,
                body: {
                  error: 'IndexParamOutOfRangeException',
                  message: 'Index 1 out of range. Index must be between 0 and 0',
                },
              }
            : { status: 200, body: statusBody('pending', { depositId: '3174204' }) },
        );
        expect(progressOf(await leg({ index: 1, ref: '3174204' }))).toEqual({
          state: 'pending',
          providerStatus: 'pending',
        });
        expect(server.received[1].query.get('depositId')).toBe('3174204');
      });

      it('an out-of-range index without a ref → provider_unavailable', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, {
          status: 400,
          body: { error: 'IndexParamOutOfRangeException', message: 'Index 1 out of range' },
        });
        expect(await leg({ index: 1, ref: null })).toMatchObject({
          ok: false,
          failure: { reasonCode: 'provider_unavailable', httpStatus: 400 },
        });
        expect(server.received).toHaveLength(1);
      });

      it('the depositId lookup not indexed yet → pending not_indexed', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, (request) =>
          request.query.has('index')
            ? { status: 200, body: statusBody('pending', { depositId: '1' }) }
            : { status: 404, body: { error: 'DepositNotFoundException', message: 'Deposit not found' } },
        );
        expect(progressOf(await leg({ index: 0, ref: '2' }))).toEqual({
          state: 'pending',
          providerStatus: 'not_indexed',
        });
      });
    });

    describe('a failed destination action (actionsSucceeded: false)', () => {
      const WETH_BASE = '0x4200000000000000000000000000000000000006';
      const filledWithActions = (actionsSucceeded: boolean | null) => ({
        status: 200,
        body: { ...fixture(__dirname, 'deposit-status-filled.json'), actionsSucceeded },
      });
      const swapDeposit = () => {
        const deposit = fixture(__dirname, 'deposit.json');
        deposit.deposit.swapOutputToken = WETH_BASE;
        deposit.deposit.swapOutputTokenAmount = '81234000000000000';
        return deposit;
      };

      it('stays filled, names the bridged token, and reports what the handler received (outputAmount)', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, filledWithActions(false));
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: swapDeposit() });
        expect(progressOf(await statusOf())).toEqual({
          state: 'filled',
          providerStatus: 'filled',
          destinationTxHash: '0x8888888888888888888888888888888888888888888888888888888888888888',
          // Not null despite the destination swap: the swap reverted, the handler drained outputAmount.
          actualOutputRaw: 249621203n,
          destinationActionFailed: { token: USDC.base },
        });
      });

      it('a bytes32 outputToken is read as the address it pads', async () => {
        const deposit = swapDeposit();
        deposit.deposit.outputToken = b32(USDC.base);
        server.route('GET', `${PREFIX}/deposit/status`, filledWithActions(false));
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: deposit });
        expect(progressOf(await statusOf())).toMatchObject({ destinationActionFailed: { token: USDC.base } });
      });

      it('a failing /deposit: the failure is still reported, token and amount unknown', async () => {
        server.route('GET', `${PREFIX}/deposit/status`, filledWithActions(false));
        server.route('GET', `${PREFIX}/deposit`, { status: 503, body: {} });
        expect(progressOf(await statusOf())).toMatchObject({
          state: 'filled',
          actualOutputRaw: null,
          destinationActionFailed: { token: null },
        });
      });

      it('slowFilled with destination actions (never an actionsSucceeded, N13): the bridged token to look for', async () => {
        const deposit = swapDeposit();
        deposit.deposit.message = '0x1234';
        server.route('GET', `${PREFIX}/deposit/status`, {
          status: 200,
          body: {
            ...fixture(__dirname, 'deposit-status-filled.json'),
            status: 'slowFilled',
            actionsSucceeded: null,
          },
        });
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: deposit });
        expect(progressOf(await statusOf())).toMatchObject({
          state: 'filled',
          providerStatus: 'slowFilled',
          destinationActionUnreported: { token: USDC.base },
        });
        // Without actions (an empty message), or a fast fill: nothing unreported.
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: swapDeposit() });
        expect(progressOf(await statusOf())).not.toHaveProperty('destinationActionUnreported');
        server.route('GET', `${PREFIX}/deposit/status`, filledWithActions(null));
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: deposit });
        expect(progressOf(await statusOf())).not.toHaveProperty('destinationActionUnreported');
      });

      it.each([true, null])('actionsSucceeded %s → no destinationActionFailed', async (actionsSucceeded) => {
        server.route('GET', `${PREFIX}/deposit/status`, filledWithActions(actionsSucceeded));
        server.route('GET', `${PREFIX}/deposit`, { status: 200, body: swapDeposit() });
        const progress = progressOf(await statusOf());
        expect(progress).toMatchObject({ state: 'filled', actualOutputRaw: null });
        expect(progress).not.toHaveProperty('destinationActionFailed');
      });
    });

    describe("Across's published examples (across-protocol/frontend docs/api-docs-openapi.yaml, bdcf46ce)", () => {
      // fixtures/openapi-deposit-status-example.json: paths./deposit/status.get 200 example, verbatim (its
      // `actionsSucceeded: null,` is a YAML typo that parses as the string "null,").
      // fixtures/openapi-deposits-example.json: paths./deposits.get 200 example; `/deposit` answers one such record
      // as `{ deposit, pagination }` (across-protocol/indexer packages/indexer-api/src/services/deposits.ts getDeposit).
      it('a filled deposit: fill hash, the bridged amount, and no failed action read from a non-boolean', async () => {
        const example = fixture(__dirname, 'openapi-deposit-status-example.json');
        const [record] = fixture(__dirname, 'openapi-deposits-example.json') as unknown as Fixture[];
        server.route('GET', `${PREFIX}/deposit/status`, { status: 200, body: example });
        server.route('GET', `${PREFIX}/deposit`, {
          status: 200,
          body: { deposit: record, pagination: { currentIndex: 0, maxIndex: 0 } },
        });
        const result = await adapter().status(
          { provider: 'across', originChainId: 8453, destinationChainId: 137 },
          { signal: never(), sourceTxHash: example.depositTxnRef, deposit: { index: 0, ref: '4406025' } },
        );
        expect(progressOf(result)).toEqual({
          state: 'filled',
          providerStatus: 'filled',
          destinationTxHash: '0x0e7b85f1c49c4c89f3b381f12a24d6838be16a41021ab16645bae9dcd1278238',
          actualOutputRaw: 995226997892889n,
        });
        // The example's depositId matches the receipt's: no second lookup.
        expect(server.received.map((request) => request.path)).toEqual([
          `${PREFIX}/deposit/status`,
          `${PREFIX}/deposit`,
        ]);
      });
    });

    it.each([429, 500])('HTTP %s → provider_unavailable', async (httpStatus) => {
      server.route('GET', `${PREFIX}/deposit/status`, { status: httpStatus, body: {} });
      expect(await statusOf()).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus },
      });
    });

    it('a 429 with Retry-After → provider_unavailable, the wait kept on the failure', async () => {
      server.route('GET', `${PREFIX}/deposit/status`, {
        status: 429,
        headers: { 'retry-after': '10' },
        body: { message: 'Too many requests' },
      });
      expect(await statusOf()).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus: 429, retryAfterMs: 10_000 },
      });
    });
  });
});
