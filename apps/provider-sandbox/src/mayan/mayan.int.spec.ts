import { formatUnits, type Address } from 'viem';
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
import { swiftOrderCalls } from '../testing/swift-order-calls';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
});
afterAll(() => sandbox?.stop());

const explorer = (hash: string) => httpJson(`${sandbox.url}/mayan-explorer/swap/trx/${hash}`);

async function quote(body: Record<string, unknown>) {
  return httpJson(`${sandbox.url}/mayan-price/quote`, { body: { swift: true, slippageBps: 50, ...body } });
}

describe('mayan dialect', () => {
  it('quotes Swift, and fills a hand-built forwarder order with the quoted expected amount', async () => {
    const user = userOn(sandbox, 0, 1);
    const recipient = freshAddress();
    const usdc = tokenAddress(sandbox, 1, 'USDC');
    const weth = tokenAddress(sandbox, 42161, 'WETH');
    const answer = await quote({
      amountIn64: '1500000000',
      fromToken: usdc,
      fromChain: 'ethereum',
      toToken: weth,
      toChain: 'arbitrum',
      destinationAddress: recipient,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.minimumSdkVersion).toHaveLength(3);
    const [q] = answer.body.quotes;
    // 1500 USDC = 0.5 WETH − 15 bps; 0.5% slippage.
    expect(q).toMatchObject({
      type: 'SWIFT',
      effectiveAmountIn64: '1500000000',
      expectedAmountOutBaseUnits: '499250000000000000',
      expectedAmountOut: 0.49925,
      minReceivedBaseUnits: '496753750000000000',
      etaSeconds: 20,
      clientRelayerFeeSuccess: 2.25,
      swiftMayanContract: sandbox.manifest.contracts[0].mayanSwift,
      swiftInputContract: usdc,
      fromChain: 'ethereum',
      toChain: 'arbitrum',
      toToken: { contract: weth, decimals: 18, wChainId: 23 },
    });

    const calls = swiftOrderCalls({
      forwarder: sandbox.manifest.providers.mayan.forwarderAddress,
      swift: q.swiftMayanContract as Address,
      tokenIn: usdc,
      amountIn: 1_500_000_000n,
      trader: user.address,
      tokenOut: weth,
      recipient,
      destWormholeChainId: 23,
      minAmountOut: BigInt(q.minReceivedBaseUnits) / 10n ** 10n,
      deadline: BigInt(q.deadline64),
      auctionMode: q.swiftAuctionMode,
    });
    const sourceTx = await user.send(calls);
    const done = await waitUntil(
      () => explorer(sourceTx),
      (r) => r.body?.clientStatus === 'COMPLETED',
    );
    expect(done.body).toMatchObject({
      sourceTxHash: sourceTx,
      sourceChain: '2',
      destChain: '23',
      toAmount: formatUnits(499_250_000_000_000_000n, 18),
      toTokenAddress: weth,
      toTokenSymbol: 'WETH',
      fromAmount: '1500',
      destAddress: recipient,
      fulfillTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      refundTxHash: null,
    });
    expect(await balanceOf(sandbox, 42161, weth, recipient)).toBe(499_250_000_000_000_000n);
  });

  it('delivers the order minimum, scaled back from 8 decimals, when no quote matches the order', async () => {
    const user = userOn(sandbox, 1, 8453);
    const recipient = freshAddress();
    const weth = tokenAddress(sandbox, 1, 'WETH');
    const calls = swiftOrderCalls({
      forwarder: sandbox.manifest.providers.mayan.forwarderAddress,
      swift: sandbox.manifest.contracts[0].mayanSwift,
      tokenIn: tokenAddress(sandbox, 8453, 'USDC'),
      amountIn: 333_000_000n,
      trader: user.address,
      tokenOut: weth,
      recipient,
      destWormholeChainId: 2,
      minAmountOut: 10_000_000n,
      deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
      auctionMode: 2,
    });
    const sourceTx = await user.send(calls);
    const done = await waitUntil(
      () => explorer(sourceTx),
      (r) => r.body?.clientStatus === 'COMPLETED',
    );
    expect(done.body.toAmount).toBe('0.1');
    expect(await balanceOf(sandbox, 1, weth, recipient)).toBe(10n ** 17n);
  });

  it('answers 404 for a swap it has not indexed', async () => {
    const answer = await explorer(`0x${'cd'.repeat(32)}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it.each([
    { name: 'same chain', body: { toChain: 'ethereum' }, code: 'UNSUPPORTED_ROUTE' },
    {
      name: 'unknown token',
      body: { toToken: '0x00000000000000000000000000000000000000ff' },
      code: 'ROUTE_NOT_FOUND',
    },
    { name: 'unknown chain', body: { toChain: 'solana' }, code: 'UNSUPPORTED_CHAIN' },
  ])('answers $name with 400 $code', async ({ body, code }) => {
    const answer = await quote({
      amountIn64: '1000000',
      fromToken: tokenAddress(sandbox, 1, 'USDC'),
      fromChain: 'ethereum',
      toToken: tokenAddress(sandbox, 1, 'USDC'),
      toChain: 'base',
      ...body,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code, message: expect.any(String) });
  });
});
