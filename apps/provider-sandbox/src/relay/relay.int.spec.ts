import { decodeFunctionData, encodeFunctionData, erc20Abi, zeroAddress, type Address, type Hex } from 'viem';
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

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
});
afterAll(() => sandbox?.stop());

const relay = (path: string) => `${sandbox.url}/relay${path}`;

function quoteBody(user: Address, recipient: Address, overrides: Record<string, unknown> = {}) {
  return {
    user,
    recipient,
    refundTo: user,
    originChainId: 1,
    destinationChainId: 8453,
    originCurrency: tokenAddress(sandbox, 1, 'USDC'),
    destinationCurrency: tokenAddress(sandbox, 8453, 'USDC'),
    amount: '250000000',
    tradeType: 'EXACT_INPUT',
    slippageTolerance: '50',
    ...overrides,
  };
}

type Item = { data: { to: Address; data: Hex; value: string; chainId: number } };
const calls = (steps: { items: Item[] }[]) =>
  steps.flatMap((s) =>
    s.items.map((i) => ({ to: i.data.to, data: i.data.data, value: BigInt(i.data.value) })),
  );

describe('relay dialect', () => {
  it('quotes, takes the deposit and fills on the destination chain', async () => {
    const user = userOn(sandbox, 0, 1);
    const recipient = freshAddress();
    const quote = await httpJson(relay('/quote/v2'), {
      body: quoteBody(user.address, recipient, { appFees: [{ recipient: freshAddress(), fee: '20' }] }),
    });
    expect(quote.status).toBe(200);
    const { steps, details, fees } = quote.body;
    expect(steps.map((s: { id: string }) => s.id)).toEqual(['approve', 'deposit']);
    const requestId = steps[1].requestId as Hex;
    expect(requestId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(steps[1].items[0].check.endpoint).toBe(`/intents/status/v3?requestId=${requestId}`);
    expect(details.currencyIn).toMatchObject({
      amount: '250000000',
      amountFormatted: '250',
      amountUsd: '250',
    });
    // 250 USDC − 10 bps − $0.02 − 20 bps app fee.
    expect(details.currencyOut).toMatchObject({ amount: '249230000', minimumAmount: '247983850' });
    expect(details.currencyOut.currency).toMatchObject({ chainId: 8453, symbol: 'USDC', decimals: 6 });
    expect(details.timeEstimate).toBe(12);
    expect(fees.relayer.amount).toBe('270000');
    expect(fees.app.amount).toBe('500000');
    const approve = decodeFunctionData({ abi: erc20Abi, data: steps[0].items[0].data.data });
    expect(approve.args).toEqual([sandbox.manifest.contracts[0].relayDepository, 250_000_000n]);

    const status = () => httpJson(relay(`/intents/status/v3?requestId=${requestId}`));
    expect((await status()).body).toMatchObject({ status: 'waiting', inTxHashes: [], txHashes: [] });

    const depositTx = await user.send(calls(steps));
    const done = await waitUntil(status, (r) => r.body.status === 'success');
    expect(done.body).toMatchObject({ inTxHashes: [depositTx], originChainId: 1, destinationChainId: 8453 });
    const fillTx = done.body.txHashes[0] as Hex;
    expect(fillTx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(sandbox, 8453, tokenAddress(sandbox, 8453, 'USDC'), recipient)).toBe(249_230_000n);

    const record = await httpJson(relay(`/requests/v3?id=${requestId}`), {
      headers: { 'x-api-key': 'anything' },
    });
    expect(record.status).toBe(200);
    const [request] = record.body.requests;
    expect(request).toMatchObject({ id: requestId, status: 'success', user: user.address, recipient });
    expect(request.data.outTxs[0]).toMatchObject({ txHash: fillTx, chainId: 8453 });
    expect(request.data.inTxs[0]).toMatchObject({ txHash: depositTx, chainId: 1 });
    expect(request.data.route.actual.destination.outputCurrency.amount).toBe('249230000');
  });

  it('requires an API key on /requests/v3', async () => {
    const answer = await httpJson(relay('/requests/v3?id=0x01'));
    expect(answer).toMatchObject({
      status: 401,
      body: { message: 'Unauthorized', errorCode: 'UNAUTHORIZED' },
    });
  });

  it('takes native ETH with value on depositNative and needs no approval', async () => {
    const user = userOn(sandbox, 1, 42161);
    const recipient = freshAddress();
    const quote = await httpJson(relay('/quote/v2'), {
      body: quoteBody(user.address, recipient, {
        originChainId: 42161,
        originCurrency: zeroAddress,
        destinationChainId: 1,
        destinationCurrency: tokenAddress(sandbox, 1, 'USDC'),
        amount: '100000000000000000',
      }),
    });
    expect(quote.status).toBe(200);
    const { steps, details } = quote.body;
    expect(steps).toHaveLength(1);
    expect(steps[0].items[0].data).toMatchObject({ value: '100000000000000000', chainId: 42161 });
    expect(details.currencyIn.currency.metadata.isNative).toBe(true);
    // 0.1 ETH at $3000 = 300 USDC − 10 bps − $0.02.
    expect(details.currencyOut.amount).toBe('299680000');
    await user.send(calls(steps));
    const done = await waitUntil(
      () => httpJson(relay(`/intents/status/v3?requestId=${steps[0].requestId}`)),
      (r) => r.body.status === 'success',
    );
    expect(done.body.txHashes).toHaveLength(1);
    expect(await balanceOf(sandbox, 1, tokenAddress(sandbox, 1, 'USDC'), recipient)).toBe(299_680_000n);
  });

  it('resets a non-zero USDT allowance with approve(0) before approving', async () => {
    const user = userOn(sandbox, 2, 8453);
    const usdt = tokenAddress(sandbox, 8453, 'USDT');
    const depository = sandbox.manifest.contracts[0].relayDepository;
    await user.send([
      {
        to: usdt,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [depository, 5n] }),
      },
    ]);
    const recipient = freshAddress();
    const quote = await httpJson(relay('/quote/v2'), {
      body: quoteBody(user.address, recipient, {
        originChainId: 8453,
        originCurrency: usdt,
        destinationChainId: 42161,
        destinationCurrency: tokenAddress(sandbox, 42161, 'USDT'),
        amount: '10000000',
      }),
    });
    const approvals = quote.body.steps[0].items.map(
      (i: Item) => decodeFunctionData({ abi: erc20Abi, data: i.data.data }).args,
    );
    expect(approvals).toEqual([
      [depository, 0n],
      [depository, 10_000_000n],
    ]);
    await user.send(calls(quote.body.steps));
    await waitUntil(
      () => httpJson(relay(`/intents/status/v3?requestId=${quote.body.steps[1].requestId}`)),
      (r) => r.body.status === 'success',
    );
    expect(await balanceOf(sandbox, 42161, tokenAddress(sandbox, 42161, 'USDT'), recipient)).toBe(
      BigInt(quote.body.details.currencyOut.amount),
    );
  });

  it.each([
    {
      name: 'same chain',
      overrides: { destinationChainId: 1, destinationCurrency: zeroAddress },
      code: 'UNSUPPORTED_ROUTE',
    },
    {
      name: 'unknown token',
      overrides: { destinationCurrency: '0x00000000000000000000000000000000000000ff' },
      // Relay changelog 2026-07-28: a pair that cannot be priced is 400 UNSUPPORTED_CURRENCY.
      code: 'UNSUPPORTED_CURRENCY',
    },
    { name: 'a recipient that is no address', overrides: { recipient: 'nope' }, code: 'INVALID_ADDRESS' },
    { name: 'unknown chain', overrides: { destinationChainId: 10 }, code: 'UNSUPPORTED_CHAIN' },
    { name: 'amount below the flat fee', overrides: { amount: '100' }, code: 'AMOUNT_TOO_LOW' },
    { name: 'missing user', overrides: { user: undefined }, code: 'INVALID_ADDRESS' },
  ])('answers $name with 400 $code', async ({ overrides, code }) => {
    const answer = await httpJson(relay('/quote/v2'), {
      body: quoteBody(freshAddress(), freshAddress(), overrides),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: expect.any(String), errorCode: code });
  });

  it('a field Relay documents no code for answers {message} alone, never an invented code', async () => {
    const answer = await httpJson(relay('/quote/v2'), {
      body: quoteBody(freshAddress(), freshAddress(), { tradeType: 'EXACT_OUTPUT' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: expect.any(String) });
  });

  it('quote scenario 912 and the 429 fault answer 429 {message} with Retry-After', async () => {
    const ask = (amount: string) =>
      fetch(relay('/quote/v2'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(quoteBody(freshAddress(), freshAddress(), { amount })),
      });
    const limited = await ask('7000912');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.json()).toEqual({ message: 'Rate limit exceeded' });
    sandbox.setFaults([{ provider: 'relay', httpStatus: 429 }]);
    try {
      const faulted = await ask('7000000');
      expect(faulted.status).toBe(429);
      expect(faulted.headers.get('retry-after')).toBe('1');
    } finally {
      sandbox.setFaults([]);
    }
  });
});
