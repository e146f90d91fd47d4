import {
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
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
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
  it('quotes, takes depositV3 and fills with the deposit outputAmount', async () => {
    const user = userOn(sandbox, 0, 8453);
    const recipient = freshAddress();
    const spokePool = sandbox.manifest.contracts[0].acrossSpokePool;
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
      appFeeRecipient: freshAddress(),
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
      id: expect.any(String),
    });
    expect(body.fees.total).toMatchObject({ amount: '4800000', amountUsd: '4.8', pct: '1600000000000000' });
    expect(body.approvalTxns).toHaveLength(1);
    expect(decodeFunctionData({ abi: erc20Abi, data: body.approvalTxns[0].data }).args).toEqual([
      spokePool,
      maxUint256,
    ]);
    expect(body.swapTx).toMatchObject({ simulationSuccess: false, chainId: 8453, to: spokePool, value: '0' });
    expect(body.swapTx.gas).toBeUndefined();
    const deposit = decodeFunctionData({ abi: AcrossSpokePoolArtifact.abi, data: body.swapTx.data });
    expect(deposit.args.slice(0, 7)).toEqual([
      user.address,
      recipient,
      tokenAddress(sandbox, 8453, 'USDC'),
      tokenAddress(sandbox, 42161, 'WETH'),
      3_000_000_000n,
      998_400_000_000_000_000n,
      42161n,
    ]);

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

    const record = await httpJson(across(`/deposit?depositTxnRef=${depositTx}`));
    expect(record.body.deposit).toMatchObject({
      status: 'filled',
      inputAmount: '3000000000',
      outputAmount: '998400000000000000',
      outputToken: tokenAddress(sandbox, 42161, 'WETH'),
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
    {
      name: 'unknown token',
      params: { outputToken: '0x00000000000000000000000000000000000000ff' },
      status: 400,
      code: 'ROUTE_NOT_ENABLED',
    },
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
});
