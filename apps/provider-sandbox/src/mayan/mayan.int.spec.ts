import { encodeFunctionData, formatUnits, parseEther, zeroAddress, type Address, type Hex } from 'viem';
import { MayanForwarderArtifact, MayanSwiftV2Artifact } from '../contracts/artifacts';
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
import { swiftOrderCalls, swiftRandomFor } from '../testing/swift-order-calls';
import { SANDBOX_MAYAN_API_KEY } from './mayan-explorer-key';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
});
afterAll(() => sandbox?.stop());

const explorerUrl = (path: string, apiKey: string | null = SANDBOX_MAYAN_API_KEY) =>
  `${sandbox.url}/mayan-explorer${path}${apiKey === null ? '' : `?apiKey=${apiKey}`}`;
const explorer = (hash: string) => httpJson(explorerUrl(`/swap/trx/${hash}`));
const forwarder = () => sandbox.manifest.providers.mayan.forwarderAddress;

/** What swap-sdk v15.2.0 generateFetchQuoteUrlAndBody sends besides the route (src/api.ts). */
async function quote(body: Record<string, unknown>) {
  return httpJson(`${sandbox.url}/mayan-price/quote`, {
    body: { swift: true, slippageBps: 50, forwarderAddress: forwarder(), sdkVersion: '15_2_0', ...body },
  });
}

describe('mayan dialect', () => {
  it('quotes Swift V2 with the fields the SDK builds from, and fills a V2 order whose random names the quote with the quoted expected amount', async () => {
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
    // The oldest SDK that wraps and locks native input (v13.0.0).
    expect(answer.body.minimumSdkVersion).toEqual([13, 0, 0]);
    const [q] = answer.body.quotes;
    // 1500 USDC = 0.5 WETH − 15 bps; 0.5% slippage. Relayer fees $0.05 + $0.10 of USDC, in 6 decimals.
    expect(q).toMatchObject({
      type: 'SWIFT',
      swiftVersion: 'V2',
      swiftAuctionMode: 2,
      quoteId: expect.stringMatching(/^0x[0-9a-f]{32}$/),
      effectiveAmountIn64: '1500000000',
      expectedAmountOutBaseUnits: '499250000000000000',
      expectedAmountOut: 0.49925,
      minAmountOut: 0.49675375,
      minReceivedBaseUnits: '496753750000000000',
      cancelRelayerFee64: '50000',
      refundRelayerFee64: '100000',
      clientRelayerFeeRefund: 0.15,
      etaSeconds: 20,
      clientRelayerFeeSuccess: 2.25,
      swiftMayanContract: sandbox.manifest.contracts[0].mayanSwiftV2,
      swiftInputContract: usdc,
      swiftWrapAndLock: false,
      fromChain: 'ethereum',
      toChain: 'arbitrum',
      toToken: { contract: weth, decimals: 18, wChainId: 23 },
    });
    // Mayan's Quote type has no bridgeFee64, and Swift sends no value with forwardERC20.
    expect(q).not.toHaveProperty('bridgeFee64');

    const calls = swiftOrderCalls({
      forwarder: forwarder(),
      swift: q.swiftMayanContract as Address,
      version: 'V2',
      tokenIn: usdc,
      amountIn: 1_500_000_000n,
      trader: user.address,
      tokenOut: weth,
      recipient,
      destWormholeChainId: 23,
      minAmountOut: 49675375n,
      deadline: BigInt(q.deadline64),
      auctionMode: q.swiftAuctionMode,
      cancelFee: BigInt(q.cancelRelayerFee64),
      refundFee: BigInt(q.refundRelayerFee64),
      random: swiftRandomFor(q.quoteId),
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

  it('native input: a wrap-and-lock quote, its route from GET /get-swap/evm, and the order swapAndForwardEth makes is filled', async () => {
    const user = userOn(sandbox, 3, 8453);
    const recipient = freshAddress();
    const weth = tokenAddress(sandbox, 8453, 'WETH');
    const usdc = tokenAddress(sandbox, 1, 'USDC');
    const amount = parseEther('0.1');
    const answer = await quote({
      amountIn64: amount.toString(),
      fromToken: zeroAddress,
      fromChain: 'base',
      toToken: usdc,
      toChain: 'ethereum',
      destinationAddress: recipient,
    });
    const [q] = answer.body.quotes;
    expect(q).toMatchObject({
      swiftVersion: 'V2',
      swiftWrapAndLock: true,
      swiftInputContract: weth,
      swiftInputDecimals: 18,
      minMiddleAmount: 0.1,
      fromToken: { contract: zeroAddress, standard: 'native' },
    });
    const route = await httpJson(
      `${sandbox.url}/mayan-price/get-swap/evm?${new URLSearchParams({
        forwarderAddress: forwarder(),
        slippageBps: '50',
        fromToken: zeroAddress,
        middleToken: weth,
        chainName: 'base',
        amountIn64: amount.toString(),
        sdkVersion: '15_2_0',
      }).toString()}`,
    );
    expect(route).toMatchObject({
      status: 200,
      body: {
        swapRouterAddress: sandbox.manifest.contracts[0].mayanSwapRouter,
        swapRouterCalldata: expect.any(String),
      },
    });
    const order = {
      payloadType: 1,
      trader: pad32(user.address),
      destAddr: pad32(recipient),
      destChainId: 2,
      referrerAddr: pad32(zeroAddress),
      tokenOut: pad32(usdc),
      minAmountOut: BigInt(q.minReceivedBaseUnits),
      gasDrop: 0n,
      cancelFee: BigInt(q.cancelRelayerFee64),
      refundFee: BigInt(q.refundRelayerFee64),
      deadline: BigInt(q.deadline64),
      referrerBps: 0,
      auctionMode: 2,
      random: swiftRandomFor(q.quoteId),
    };
    const mayanData = encodeFunctionData({
      abi: MayanSwiftV2Artifact.abi,
      functionName: 'createOrderWithToken',
      args: [zeroAddress, amount, order, '0x'],
    });
    const sourceTx = await user.send([
      {
        to: forwarder(),
        value: amount,
        data: encodeFunctionData({
          abi: MayanForwarderArtifact.abi,
          functionName: 'swapAndForwardEth',
          args: [
            amount,
            route.body.swapRouterAddress,
            route.body.swapRouterCalldata,
            weth,
            amount,
            q.swiftMayanContract,
            mayanData,
          ],
        }),
      },
    ]);
    const done = await waitUntil(
      () => explorer(sourceTx),
      (r) => r.body?.clientStatus === 'COMPLETED',
    );
    expect(done.body).toMatchObject({ fromTokenAddress: zeroAddress, fromAmount64: amount.toString() });
    expect(await balanceOf(sandbox, 1, usdc, recipient)).toBe(BigInt(q.expectedAmountOutBaseUnits));
  });

  it('an order whose random does not start with a quoteId it issued gets the order minimum, scaled back from 8 decimals', async () => {
    const user = userOn(sandbox, 1, 8453);
    const recipient = freshAddress();
    const weth = tokenAddress(sandbox, 1, 'WETH');
    const usdcBase = tokenAddress(sandbox, 8453, 'USDC');
    // A real quote for exactly this order: only the random's quoteId is missing (swap-sdk before v12.0.0).
    const answer = await quote({
      amountIn64: '333000000',
      fromToken: usdcBase,
      fromChain: 'base',
      toToken: weth,
      toChain: 'ethereum',
      destinationAddress: recipient,
    });
    expect(answer.status).toBe(200);
    const calls = swiftOrderCalls({
      forwarder: forwarder(),
      swift: answer.body.quotes[0].swiftMayanContract as Address,
      version: 'V2',
      tokenIn: usdcBase,
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

  it('an order past its deadline is never filled: CANCELED, and the input refunded to its trader', async () => {
    const user = userOn(sandbox, 4, 1);
    const refundTo = freshAddress();
    const usdc = tokenAddress(sandbox, 1, 'USDC');
    const calls = swiftOrderCalls({
      forwarder: forwarder(),
      swift: sandbox.manifest.contracts[0].mayanSwift,
      tokenIn: usdc,
      amountIn: 25_000_000n,
      // swap-sdk v15.2.0 swiftRefundAddress: the trader need not be the sender.
      trader: refundTo,
      tokenOut: tokenAddress(sandbox, 8453, 'USDC'),
      recipient: freshAddress(),
      destWormholeChainId: 30,
      minAmountOut: 24_000_000n,
      deadline: BigInt(Math.floor(Date.now() / 1000) - 60),
      auctionMode: 2,
    });
    const sourceTx = await user.send(calls);
    const done = await waitUntil(
      () => explorer(sourceTx),
      (r) => r.body?.clientStatus === 'CANCELED' && r.body?.refundTxHash !== null,
    );
    expect(done.body).toMatchObject({ fulfillTxHash: null, refundTxHash: expect.stringMatching(/^0x/) });
    expect(await balanceOf(sandbox, 1, usdc, refundTo)).toBe(25_000_000n);

    // The explorer answers only its key (issue 24 S17, provider review N4): 401 without one, 403 for another.
    const path = `/swap/trx/${sourceTx}`;
    expect(await httpJson(explorerUrl(path, null))).toMatchObject({ status: 401 });
    expect(await httpJson(explorerUrl(path, 'someone-else'))).toMatchObject({ status: 403 });
    // The order by its key, as Mayan's driver asks (driver-sdk src/watchers/mayan-explorer.ts); /swap/trx takes a
    // transaction hash only (Mayan documents order hashes there for gasless orders).
    const key = done.body.orderHash as string;
    const byKey = await httpJson(explorerUrl(`/swap/order-id/SWIFT_${key}`));
    expect(byKey).toMatchObject({ status: 200, body: { orderHash: key, clientStatus: 'CANCELED' } });
    expect(await httpJson(explorerUrl(`/swap/order-id/SWIFT_${key}`, null))).toMatchObject({ status: 401 });
    expect(await explorer(key)).toMatchObject({ status: 404 });
  });

  it('answers 404 {msg} for a swap it has not indexed', async () => {
    const answer = await explorer(`0x${'cd'.repeat(32)}`);
    expect(answer).toMatchObject({ status: 404, body: { msg: expect.any(String) } });
    expect(answer.body).not.toHaveProperty('code');
  });

  it("answers a too-small amount with Mayan's AMOUNT_TOO_SMALL body (wormhole-sdk-route src/index.ts)", async () => {
    // $0.15 of relayer fees on a $0.10 input: Swift would refuse the order (FeesTooHigh).
    const answer = await quote({
      amountIn64: '100000',
      fromToken: tokenAddress(sandbox, 1, 'USDC'),
      fromChain: 'ethereum',
      toToken: tokenAddress(sandbox, 8453, 'USDC'),
      toChain: 'base',
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'AMOUNT_TOO_SMALL',
        data: { minAmountIn: 0.150001 },
        message: 'Amount too small (min ~0.150001 USDC)',
      },
    });
  });

  it.each([
    { name: 'same chain', body: { toChain: 'ethereum' } },
    { name: 'unknown token', body: { toToken: '0x00000000000000000000000000000000000000ff' } },
    { name: 'unknown chain', body: { toChain: 'solana' } },
    { name: 'another forwarder', body: { forwarderAddress: '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2' } },
    { name: 'a malformed sdkVersion', body: { sdkVersion: '15.2.0' } },
  ])('answers $name with 400 {msg} and no invented code', async ({ body }) => {
    const answer = await quote({
      amountIn64: '1000000',
      fromToken: tokenAddress(sandbox, 1, 'USDC'),
      fromChain: 'ethereum',
      toToken: tokenAddress(sandbox, 1, 'USDC'),
      toChain: 'base',
      ...body,
    });
    expect(answer).toMatchObject({ status: 400, body: { msg: expect.any(String) } });
    expect(answer.body).not.toHaveProperty('code');
  });

  it('quote scenario 912: a 429 with Retry-After, as a NestJS throttler answers', async () => {
    const response = await fetch(`${sandbox.url}/mayan-price/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        amountIn64: '5000912',
        fromToken: tokenAddress(sandbox, 1, 'USDC'),
        fromChain: 'ethereum',
        toToken: tokenAddress(sandbox, 8453, 'USDC'),
        toChain: 'base',
        slippageBps: 50,
      }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({
      statusCode: 429,
      message: 'ThrottlerException: Too Many Requests',
    });
  });
});

function pad32(address: Address): Hex {
  return `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
}
