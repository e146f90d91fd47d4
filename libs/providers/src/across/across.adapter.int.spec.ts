import { getAddress, maxUint256 } from 'viem';
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
import { AcrossAdapter } from './across.adapter';

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
    new AcrossAdapter({ baseUrl: server.origin + PREFIX, apiKey: null, integratorId: null, timeoutMs }),
  slice: () => ethToBase,
});

describe('AcrossAdapter', () => {
  let server: FakeProviderServer;
  const adapter = (
    auth: { apiKey: string | null; integratorId: string | null } = { apiKey: null, integratorId: null },
  ) => new AcrossAdapter({ baseUrl: server.origin + PREFIX, ...auth, timeoutMs: 5000 });
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
      });
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

    it.each([429, 500])('HTTP %s → provider_unavailable', async (httpStatus) => {
      server.route('GET', `${PREFIX}/deposit/status`, { status: httpStatus, body: {} });
      expect(await statusOf()).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus },
      });
    });
  });
});
