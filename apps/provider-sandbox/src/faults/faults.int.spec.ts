import { type Address, type Hex } from 'viem';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { SANDBOX_MAYAN_API_KEY } from '../mayan/mayan-explorer-key';
import {
  balanceOf,
  freshAddress,
  httpJson,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  waitUntil,
} from '../testing/sandbox-test-kit';
import { swiftOrderCalls } from '../testing/swift-order-calls';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
});
afterAll(() => sandbox?.stop());
afterEach(() => httpJson(`${sandbox.url}/faults`, { method: 'DELETE' }));

const setFaults = (faults: unknown) => httpJson(`${sandbox.url}/faults`, { body: faults });

/** One quote request per dialect, USDC ethereum → base, in that dialect's shape. */
function quoteRequest(provider: 'relay' | 'across' | 'mayan', token = tokenAddress(sandbox, 1, 'USDC')) {
  const user = sandbox.manifest.wallets.users[5].address;
  const out = tokenAddress(sandbox, 8453, 'USDC');
  switch (provider) {
    case 'relay':
      return {
        url: `${sandbox.url}/relay/quote/v2`,
        body: {
          user,
          originChainId: 1,
          destinationChainId: 8453,
          originCurrency: token,
          destinationCurrency: out,
          amount: '1000000',
          tradeType: 'EXACT_INPUT',
        },
      };
    case 'across': {
      const query = new URLSearchParams({
        tradeType: 'exactInput',
        amount: '1000000',
        inputToken: token,
        outputToken: out,
        originChainId: '1',
        destinationChainId: '8453',
        depositor: user,
      });
      return { url: `${sandbox.url}/across/swap/approval?${query.toString()}`, body: undefined };
    }
    case 'mayan':
      return {
        url: `${sandbox.url}/mayan-price/quote`,
        body: {
          amountIn64: '1000000',
          fromToken: token,
          fromChain: 'ethereum',
          toToken: out,
          toChain: 'base',
          swift: true,
        },
      };
  }
}

const askQuote = (provider: 'relay' | 'across' | 'mayan', token?: Address, signal?: AbortSignal) => {
  const { url, body } = quoteRequest(provider, token);
  return httpJson(url, { body, signal });
};

describe('faults', () => {
  it.each([
    {
      provider: 'relay',
      httpStatus: 503,
      body: { message: expect.any(String), errorCode: 'SERVICE_UNAVAILABLE' },
    },
    {
      provider: 'relay',
      httpStatus: 500,
      body: { message: expect.any(String), errorCode: 'UNKNOWN_ERROR', requestId: expect.any(String) },
    },
    { provider: 'relay', httpStatus: 429, body: { message: expect.any(String) } },
    {
      provider: 'across',
      httpStatus: 502,
      body: {
        type: 'AcrossApiError',
        code: 'UPSTREAM_HTTP_ERROR',
        status: 502,
        message: expect.any(String),
        id: expect.any(String),
      },
    },
    {
      provider: 'across',
      httpStatus: 500,
      body: {
        type: 'AcrossApiError',
        code: 'UNEXPECTED_ERROR',
        status: 500,
        message: expect.any(String),
        id: expect.any(String),
      },
    },
    { provider: 'mayan', httpStatus: 503, body: { statusCode: 503, message: expect.any(String) } },
  ] as const)(
    '$provider httpStatus $httpStatus answers in its dialect',
    async ({ provider, httpStatus, body }) => {
      expect((await setFaults({ provider, httpStatus })).status).toBe(200);
      const answer = await askQuote(provider);
      expect(answer.status).toBe(httpStatus);
      expect(answer.body).toEqual(body);
    },
  );

  it('hits status endpoints too, unless the fault is scoped to quotes', async () => {
    await setFaults([{ provider: 'mayan', httpStatus: 500 }]);
    const swap = `${sandbox.url}/mayan-explorer/swap/trx/0x01?apiKey=${SANDBOX_MAYAN_API_KEY}`;
    expect((await httpJson(swap)).status).toBe(500);
    await setFaults([{ provider: 'mayan', httpStatus: 500, endpoints: 'quote' }]);
    expect((await httpJson(swap)).status).toBe(404);
    expect((await askQuote('mayan')).status).toBe(500);
  });

  it('delays answers by latencyMs', async () => {
    sandbox.setFaults([{ provider: 'relay', latencyMs: 400 }]);
    const started = Date.now();
    const answer = await askQuote('relay');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('never answers under timeout, until the client gives up', async () => {
    await setFaults({ provider: 'across', timeout: true });
    await expect(askQuote('across', undefined, AbortSignal.timeout(300))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect((await askQuote('relay')).status).toBe(200);
  });

  it('sends truncated JSON under malformedJson', async () => {
    await setFaults({ provider: 'relay', malformedJson: true });
    const answer = await askQuote('relay');
    expect(answer.status).toBe(200);
    expect(answer.body).toBeUndefined();
    expect(() => JSON.parse(answer.text) as unknown).toThrow(SyntaxError);
    expect(answer.text.startsWith('{"steps":[')).toBe(true);
  });

  it.each([
    {
      provider: 'relay',
      status: 400,
      body: { message: 'No routes found', errorCode: 'NO_SWAP_ROUTES_FOUND' },
    },
    {
      provider: 'across',
      status: 400,
      body: expect.objectContaining({ type: 'AcrossApiError', code: 'ROUTE_NOT_ENABLED' }),
    },
    { provider: 'mayan', status: 400, body: { msg: 'Route not found' } },
  ] as const)(
    '$provider refuses routes through routeUnavailableTokens only',
    async ({ provider, status, body }) => {
      const usdt = tokenAddress(sandbox, 1, 'USDT');
      await setFaults({ provider, routeUnavailableTokens: [usdt] });
      const refused = await askQuote(provider, usdt);
      expect(refused.status).toBe(status);
      expect(refused.body).toEqual(body);
      expect((await askQuote(provider)).status).toBe(200);
    },
  );

  it('rejects a fault it cannot apply, naming the field, and DELETE clears faults', async () => {
    const bad = await setFaults({ provider: 'relay', httpStatus: 404 });
    expect(bad).toMatchObject({ status: 400, body: { message: 'httpStatus: must be 429 or 5xx' } });
    await setFaults({ provider: 'relay', httpStatus: 503 });
    expect((await httpJson(`${sandbox.url}/faults`)).body.faults).toHaveLength(1);
    await httpJson(`${sandbox.url}/faults?provider=relay`, { method: 'DELETE' });
    expect((await askQuote('relay')).status).toBe(200);
  });
});

describe('refund fault', () => {
  const amount = 40_000_000n;

  async function refundCheck(
    userIndex: number,
    deposit: (user: ReturnType<typeof userOn>) => Promise<() => ReturnType<typeof httpJson>>,
  ) {
    const user = userOn(sandbox, userIndex, 1);
    const usdc = tokenAddress(sandbox, 1, 'USDC');
    const before = await balanceOf(sandbox, 1, usdc, user.address);
    const status = await deposit(user);
    expect(await balanceOf(sandbox, 1, usdc, user.address)).toBe(before - amount);
    return {
      status,
      restored: () => balanceOf(sandbox, 1, usdc, user.address).then((b) => expect(b).toBe(before)),
    };
  }

  it('relay refunds the deposit on the source chain: status refund with the refund tx', async () => {
    sandbox.setFaults([{ provider: 'relay', refund: true }]);
    const recipient = freshAddress();
    const { status, restored } = await refundCheck(2, async (user) => {
      const quote = await askQuoteFor('relay', user.address, recipient);
      const steps = quote.body.steps as {
        requestId: Hex;
        items: { data: { to: Address; data: Hex; value: string } }[];
      }[];
      await user.send(
        steps.flatMap((s) =>
          s.items.map((i) => ({ to: i.data.to, data: i.data.data, value: BigInt(i.data.value) })),
        ),
      );
      return () => httpJson(`${sandbox.url}/relay/intents/status/v3?requestId=${steps[0].requestId}`);
    });
    const done = await waitUntil(status, (r) => r.body.status === 'refund');
    expect(done.body.txHashes[0]).toMatch(/^0x[0-9a-f]{64}$/);
    await restored();
    expect(await balanceOf(sandbox, 8453, tokenAddress(sandbox, 8453, 'USDC'), recipient)).toBe(0n);
  });

  it('across refunds: status refunded with depositRefundTxnRef', async () => {
    await setFaults({ provider: 'across', refund: true });
    const { status, restored } = await refundCheck(3, async (user) => {
      const quote = await askQuoteFor('across', user.address, freshAddress());
      const txs = [...quote.body.approvalTxns, quote.body.swapTx] as { to: Address; data: Hex }[];
      const depositTx = await user.send(txs.map((t) => ({ to: t.to, data: t.data })));
      return () => httpJson(`${sandbox.url}/across/deposit/status?depositTxnRef=${depositTx}`);
    });
    const done = await waitUntil(status, (r) => r.body?.status === 'refunded');
    expect(done.body).toMatchObject({
      fillTxnRef: null,
      depositRefundTxnRef: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    await restored();
  });

  it('mayan refunds: clientStatus REFUNDED with refundTxHash', async () => {
    await setFaults({ provider: 'mayan', refund: true });
    const { status, restored } = await refundCheck(4, async (user) => {
      const recipient = freshAddress();
      const quote = await askQuoteFor('mayan', user.address, recipient);
      const q = quote.body.quotes[0];
      const sourceTx = await user.send(
        swiftOrderCalls({
          forwarder: sandbox.manifest.providers.mayan.forwarderAddress,
          swift: q.swiftMayanContract,
          version: q.swiftVersion,
          tokenIn: tokenAddress(sandbox, 1, 'USDC'),
          amountIn: amount,
          trader: user.address,
          tokenOut: tokenAddress(sandbox, 8453, 'USDC'),
          recipient,
          destWormholeChainId: 30,
          minAmountOut: BigInt(q.minReceivedBaseUnits),
          deadline: BigInt(q.deadline64),
          auctionMode: q.swiftAuctionMode,
        }),
      );
      return () =>
        httpJson(`${sandbox.url}/mayan-explorer/swap/trx/${sourceTx}?apiKey=${SANDBOX_MAYAN_API_KEY}`);
    });
    const done = await waitUntil(status, (r) => r.body?.clientStatus === 'REFUNDED');
    expect(done.body).toMatchObject({
      fulfillTxHash: null,
      toAmount: null,
      refundTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    await restored();
  });

  function askQuoteFor(provider: 'relay' | 'across' | 'mayan', user: Address, recipient: Address) {
    const { url, body } = quoteRequest(provider);
    if (provider === 'across') {
      const u = new URL(url);
      u.searchParams.set('depositor', user);
      u.searchParams.set('recipient', recipient);
      u.searchParams.set('amount', amount.toString());
      return httpJson(u.toString());
    }
    const overrides =
      provider === 'relay'
        ? { user, recipient, amount: amount.toString() }
        : { destinationAddress: recipient, amountIn64: amount.toString() };
    return httpJson(url, { body: { ...body, ...overrides } });
  }
});
