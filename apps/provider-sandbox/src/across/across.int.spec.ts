import {
  decodeAbiParameters,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  zeroAddress,
  type Address,
  type Hex,
} from 'viem';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
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
  // One extra token (BENCH01): an output Across does not bridge, so its routes carry a destination swap.
  sandbox = await startSandbox({ ...TEST_SANDBOX_OPTIONS, extraTokens: 1 });
});
afterAll(() => sandbox?.stop());

const across = (path: string) => `${sandbox.url}/across${path}`;

function approvalUrl(params: Record<string, string | number>): string {
  const query = new URLSearchParams({ tradeType: 'exactInput', slippage: '0.005', ...params } as Record<
    string,
    string
  >);
  return across(`/swap/approval?${query.toString()}`);
}

type Tx = { to: Address; data: Hex; value?: string };
const txs = (body: { approvalTxns: Tx[]; swapTx: Tx }) =>
  [...body.approvalTxns, body.swapTx].map((t) => ({ to: t.to, data: t.data, value: BigInt(t.value ?? '0') }));

describe('across dialect', () => {
  it('quotes, takes depositV3 and fills; an app fee rides on the bridge leg and is paid out of it (S8)', async () => {
    const user = userOn(sandbox, 0, 8453);
    const recipient = freshAddress();
    const feeRecipient = freshAddress();
    const spokePool = sandbox.manifest.contracts[0].acrossSpokePool;
    const quotedAt = Math.floor(Date.now() / 1000);
    const url = approvalUrl({
      amount: '3000000000',
      inputToken: tokenAddress(sandbox, 8453, 'USDC'),
      outputToken: tokenAddress(sandbox, 42161, 'WETH'),
      originChainId: 8453,
      destinationChainId: 42161,
      depositor: user.address,
      recipient,
      refundAddress: user.address,
      appFee: '0.001',
      appFeeRecipient: feeRecipient,
      integratorId: '0xdead',
    });
    const quote = await httpJson(url);
    expect(quote.status).toBe(200);
    const body = quote.body;
    // 3000 USDC = 1 WETH − 6 bps − 10 bps app fee; 0.5% slippage.
    expect(body).toMatchObject({
      inputAmount: '3000000000',
      expectedOutputAmount: '998400000000000000',
      minOutputAmount: '993408000000000000',
      expectedFillTime: 4,
      inputToken: { symbol: 'USDC', decimals: 6, chainId: 8453 },
      outputToken: { symbol: 'WETH', decimals: 18, chainId: 42161 },
      // No refundOnOrigin sent, output not the input's asset: Across's default is a destination refund.
      refundToken: { symbol: 'WETH', chainId: 42161 },
      id: expect.any(String),
    });
    // WETH is an output Across bridges: Across keeps the origin swap (A2B), no destination swap, so the quote holds
    // the one-hour buffer (api/_quote-timestamp.ts, api/_dexes/cross-swap-service.ts selectBestCrossSwapQuote).
    expect(body.crossSwapType).toBe('anyToBridgeable');
    expect(body.quoteExpiryTimestamp - quotedAt).toBeGreaterThanOrEqual(3599);
    expect(body.quoteExpiryTimestamp - quotedAt).toBeLessThanOrEqual(3601);
    expect(body.fees.total).toMatchObject({ amount: '4800000', amountUsd: '4.8', pct: '1600000000000000' });
    expect(body.approvalTxns).toHaveLength(1);
    expect(decodeFunctionData({ abi: erc20Abi, data: body.approvalTxns[0].data }).args).toEqual([
      spokePool,
      maxUint256,
    ]);
    expect(body.swapTx).toMatchObject({ simulationSuccess: false, chainId: 8453, to: spokePool, value: '0' });
    expect(body.swapTx.gas).toBeUndefined();
    const deposit = decodeFunctionData({ abi: AcrossSpokePoolArtifact.abi, data: body.swapTx.data });
    // The bridge leg: the expected output plus the 10 bps app fee (1e15 wei), which the message pays out.
    const appFee = 1_000_000_000_000_000n;
    expect(deposit.args.slice(0, 7)).toEqual([
      user.address,
      recipient,
      tokenAddress(sandbox, 8453, 'USDC'),
      tokenAddress(sandbox, 42161, 'WETH'),
      3_000_000_000n,
      998_400_000_000_000_000n + appFee,
      42161n,
    ]);
    // quoteTimestamp = expiry - the one-hour buffer (getQuoteTimestampArg).
    expect(deposit.args[8]).toBe(body.quoteExpiryTimestamp - 3600);
    const [{ calls, fallbackRecipient }] = decodeAbiParameters(
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
      deposit.args[11] ?? '0x',
    );
    expect(calls[0]).toEqual({
      target: tokenAddress(sandbox, 42161, 'WETH'),
      callData: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [feeRecipient, appFee] }),
      value: 0n,
    });
    expect(fallbackRecipient).toBe(user.address);

    const depositTx = await user.send(txs(body));
    const status = () => httpJson(across(`/deposit/status?depositTxnRef=${depositTx}`));
    const done = await waitUntil(status, (r) => r.body?.status === 'filled');
    expect(done.body).toMatchObject({
      originChainId: 8453,
      destinationChainId: 42161,
      depositTxnRef: depositTx,
      fillTxnRef: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      depositRefundTxnRef: null,
    });
    expect(done.body.fillTx).toBe(done.body.fillTxnRef);
    expect(await balanceOf(sandbox, 42161, tokenAddress(sandbox, 42161, 'WETH'), recipient)).toBe(
      998_400_000_000_000_000n,
    );
    expect(await balanceOf(sandbox, 42161, tokenAddress(sandbox, 42161, 'WETH'), feeRecipient)).toBe(appFee);

    // As the indexer: outputAmount is the bridge leg the MulticallHandler received, the app fee included.
    const record = await httpJson(across(`/deposit?depositTxnRef=${depositTx}`));
    expect(record.body.deposit).toMatchObject({
      status: 'filled',
      inputAmount: '3000000000',
      outputAmount: '999400000000000000',
      outputToken: tokenAddress(sandbox, 42161, 'WETH'),
      message: deposit.args[11],
      fillTxnRef: done.body.fillTxnRef,
    });
    const byId = await httpJson(
      across(`/deposit/status?originChainId=8453&depositId=${done.body.depositId}`),
    );
    expect(byId.body.depositTxnRef).toBe(depositTx);
  });

  it('answers 404 DepositNotFoundException for a deposit it has not indexed', async () => {
    const answer = await httpJson(across(`/deposit/status?depositTxnRef=0x${'ab'.repeat(32)}`));
    expect(answer).toEqual({
      status: 404,
      text: expect.any(String),
      body: {
        error: 'DepositNotFoundException',
        message: 'Deposit not found given the provided constraints',
      },
    });
  });

  it('a same-asset route: no message, validity of an hour, refunds on origin; refundOnOrigin=false is refused', async () => {
    const params = {
      amount: '5000000',
      inputToken: tokenAddress(sandbox, 8453, 'USDC'),
      outputToken: tokenAddress(sandbox, 1, 'USDC'),
      originChainId: 8453,
      destinationChainId: 1,
      depositor: freshAddress(),
    };
    const quotedAt = Math.floor(Date.now() / 1000);
    const quote = await httpJson(approvalUrl(params));
    expect(quote.body.quoteExpiryTimestamp - quotedAt).toBeGreaterThanOrEqual(3599);
    expect(quote.body.quoteExpiryTimestamp - quotedAt).toBeLessThanOrEqual(3601);
    expect(quote.body.refundToken).toMatchObject({ symbol: 'USDC', chainId: 8453 });
    const deposit = decodeFunctionData({ abi: AcrossSpokePoolArtifact.abi, data: quote.body.swapTx.data });
    expect(deposit.args[11]).toBe('0x');
    // api/_dexes/cross-swap-service.ts _prepCrossSwapQuotesRetrievalB2B.
    const refused = await httpJson(approvalUrl({ ...params, refundOnOrigin: 'false' }));
    expect(refused).toMatchObject({
      status: 400,
      body: {
        type: 'AcrossApiError',
        code: 'INVALID_PARAM',
        param: 'refundOnOrigin',
        message: "Query param 'refundOnOrigin' must be 'true' for same-asset bridge swaps.",
      },
    });
  });

  it('a destination swap (to an output Across does not bridge) is valid for 30 s, 60 s on mainnet (api/_quote-timestamp.ts)', async () => {
    for (const [destinationChainId, seconds] of [
      [42161, 30],
      [1, 60],
    ] as const) {
      const quotedAt = Math.floor(Date.now() / 1000);
      const quote = await httpJson(
        approvalUrl({
          amount: '5000000',
          inputToken: tokenAddress(sandbox, 8453, 'USDC'),
          outputToken: tokenAddress(sandbox, destinationChainId, 'BENCH01'),
          originChainId: 8453,
          destinationChainId,
          depositor: freshAddress(),
        }),
      );
      expect(quote.body.crossSwapType).toBe('bridgeableToAny');
      expect(quote.body.quoteExpiryTimestamp - quotedAt).toBeGreaterThanOrEqual(seconds - 1);
      expect(quote.body.quoteExpiryTimestamp - quotedAt).toBeLessThanOrEqual(seconds + 1);
      // quoteTimestamp = expiry - the one-hour buffer (getQuoteTimestampArg): the SpokePool refuses it after expiry.
      const deposit = decodeFunctionData({ abi: AcrossSpokePoolArtifact.abi, data: quote.body.swapTx.data });
      expect(deposit.args[8]).toBe(quote.body.quoteExpiryTimestamp - 3600);
    }
  });

  it('quote scenario 911 answers swapTx.gas "0" (toolkit 9c840105); the deposit then settles normally', async () => {
    const user = userOn(sandbox, 3, 8453);
    const recipient = freshAddress();
    const quote = await httpJson(
      approvalUrl({
        amount: '2000911',
        inputToken: zeroAddress,
        outputToken: zeroAddress,
        originChainId: 8453,
        destinationChainId: 1,
        depositor: user.address,
        recipient,
      }),
    );
    expect(quote.body.swapTx).toMatchObject({ simulationSuccess: true, gas: '0' });
    const depositTx = await user.send(txs(quote.body));
    await waitUntil(
      () => httpJson(across(`/deposit/status?depositTxnRef=${depositTx}`)),
      (r) => r.body?.status === 'filled',
    );
    expect(await balanceOf(sandbox, 1, zeroAddress, recipient)).toBe(BigInt(quote.body.expectedOutputAmount));
  });

  it('quote scenario 912 and the 429 fault answer 429 with Retry-After, an AcrossApiError without a code', async () => {
    const query = new URLSearchParams({
      tradeType: 'exactInput',
      amount: '7000912',
      inputToken: tokenAddress(sandbox, 8453, 'USDC'),
      outputToken: tokenAddress(sandbox, 1, 'USDC'),
      originChainId: '8453',
      destinationChainId: '1',
      depositor: freshAddress(),
    });
    const limited = await fetch(across(`/swap/approval?${query.toString()}`));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.json()).toEqual({
      type: 'AcrossApiError',
      status: 429,
      message: expect.any(String),
      id: expect.any(String),
    });
    sandbox.setFaults([{ provider: 'across', httpStatus: 429 }]);
    try {
      query.set('amount', '7000000');
      const faulted = await fetch(across(`/swap/approval?${query.toString()}`));
      expect(faulted.status).toBe(429);
      expect(faulted.headers.get('retry-after')).toBe('1');
    } finally {
      sandbox.setFaults([]);
    }
  });

  it('resets a non-zero USDT allowance with approve(0), then simulates once approved', async () => {
    const user = userOn(sandbox, 1, 1);
    const usdt = tokenAddress(sandbox, 1, 'USDT');
    const spokePool = sandbox.manifest.contracts[0].acrossSpokePool;
    await user.send([
      {
        to: usdt,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spokePool, 1n] }),
      },
    ]);
    const recipient = freshAddress();
    const params = {
      amount: '20000000',
      inputToken: usdt,
      outputToken: tokenAddress(sandbox, 8453, 'USDT'),
      originChainId: 1,
      destinationChainId: 8453,
      depositor: user.address,
      recipient,
    };
    const quote = await httpJson(approvalUrl(params));
    const approvals = quote.body.approvalTxns.map(
      (t: Tx) => decodeFunctionData({ abi: erc20Abi, data: t.data }).args,
    );
    expect(approvals).toEqual([
      [spokePool, 0n],
      [spokePool, maxUint256],
    ]);
    await user.send(quote.body.approvalTxns.map((t: Tx) => ({ to: t.to, data: t.data })));
    const again = await httpJson(approvalUrl(params));
    expect(again.body.approvalTxns).toEqual([]);
    expect(again.body.swapTx).toMatchObject({ simulationSuccess: true, gas: expect.stringMatching(/^\d+$/) });
    const depositTx = await user.send(txs(again.body));
    await waitUntil(
      () => httpJson(across(`/deposit/status?depositTxnRef=${depositTx}`)),
      (r) => r.body?.status === 'filled',
    );
    expect(await balanceOf(sandbox, 8453, tokenAddress(sandbox, 8453, 'USDT'), recipient)).toBe(
      BigInt(again.body.expectedOutputAmount),
    );
  });

  it('takes native ETH as WETH input with the amount as value', async () => {
    const user = userOn(sandbox, 2, 1);
    const recipient = freshAddress();
    const quote = await httpJson(
      approvalUrl({
        amount: '1000000000000000000',
        inputToken: zeroAddress,
        outputToken: zeroAddress,
        originChainId: 1,
        destinationChainId: 8453,
        depositor: user.address,
        recipient,
      }),
    );
    expect(quote.body.approvalTxns).toEqual([]);
    expect(quote.body.swapTx.value).toBe('1000000000000000000');
    const deposit = decodeFunctionData({ abi: AcrossSpokePoolArtifact.abi, data: quote.body.swapTx.data });
    expect(deposit.args[2]).toBe(tokenAddress(sandbox, 1, 'WETH'));
    const depositTx = await user.send(txs(quote.body));
    await waitUntil(
      () => httpJson(across(`/deposit/status?depositTxnRef=${depositTx}`)),
      (r) => r.body?.status === 'filled',
    );
    expect(await balanceOf(sandbox, 8453, zeroAddress, recipient)).toBe(
      BigInt(quote.body.expectedOutputAmount),
    );
  });

  it.each([
    { name: 'same chain', params: { destinationChainId: 8453 }, status: 400, code: 'INVALID_PARAM' },
    { name: 'missing depositor', params: { depositor: '' }, status: 400, code: 'MISSING_PARAM' },
    { name: 'zero amount', params: { amount: '0' }, status: 400, code: 'INVALID_PARAM' },
  ])('answers $name with $status $code', async ({ params, status, code }) => {
    const answer = await httpJson(
      approvalUrl({
        amount: '1000000',
        inputToken: tokenAddress(sandbox, 8453, 'USDC'),
        outputToken: tokenAddress(sandbox, 1, 'USDC'),
        originChainId: 8453,
        destinationChainId: 1,
        depositor: freshAddress(),
        ...params,
      }),
    );
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({
      type: 'AcrossApiError',
      code,
      status,
      message: expect.any(String),
      id: expect.any(String),
    });
  });

  it('answers an unknown token with a 404 without a code (api/_errors.ts TokenNotFoundError)', async () => {
    const unknown = '0x00000000000000000000000000000000000000ff';
    const answer = await httpJson(
      approvalUrl({
        amount: '1000000',
        inputToken: tokenAddress(sandbox, 8453, 'USDC'),
        outputToken: unknown,
        originChainId: 8453,
        destinationChainId: 1,
        depositor: freshAddress(),
      }),
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      type: 'AcrossApiError',
      status: 404,
      message: `Unable to find tokenDetails for address: ${unknown}, on chain with id: 1`,
      id: expect.any(String),
    });
  });
});
