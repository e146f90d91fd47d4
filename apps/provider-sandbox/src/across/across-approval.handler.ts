import { type Hex, encodeFunctionData, erc20Abi, maxUint256, zeroAddress } from 'viem';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
import { randomId } from '../http/random-id';
import { RateLimitedError } from '../http/rate-limited-error';
import { RequestFieldError } from '../http/request-field-error';
import { queryObject, readAddress, readOptionalAddress, readUint } from '../http/request-fields';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { RouteUnavailableError } from '../pricing/quote-errors';
import { approvalCalls } from '../rpc/approval-calls';
import { contractsOn, quoteFor, readChainId, type SandboxContext } from '../sandbox-context';
import { quoteScenarioFor, RATE_LIMIT_RETRY_AFTER_SECONDS } from '../scenarios/quote-scenarios';
import { isNative } from '../tokens/token-directory';
import { encodeAppFeeMessage } from './across-fee-message';
import {
  acrossOutputBridgeable,
  acrossQuoteBody,
  acrossSameAsset,
  type AcrossSwapTx,
} from './across-quote-body';
import { acrossQuoteTiming } from './across-quote-timing';
import { cctpQuote, cctpRoutable, depositForBurnCalldata } from '../cctp/cctp-route';
import { ACROSS_FILL_DEADLINE_BUFFER_SECONDS } from './across-refund-timing';
import { readFractionBps } from './read-fraction-bps';

const AUTO_SLIPPAGE_BPS = 50;
const DEPOSIT_GAS = 90_000n;

/**
 * `GET /swap/approval`: prices the transfer and returns the approvals the depositor still needs plus a
 * `depositV3` on the sandbox spoke pool (native input names the chain's WETH and sends the amount as value), or,
 * under the `cctp` fault, a TokenMessengerV2 `depositForBurn` for a USDC→USDC leg (docs/sandbox.md "CCTP").
 */
export function acrossApprovalHandler(context: SandboxContext): RouteHandler {
  return async (request) => {
    const query = queryObject(request.query);
    const tradeType = request.query.get('tradeType') ?? 'exactInput';
    if (tradeType !== 'exactInput') {
      throw new RequestFieldError('tradeType', 'invalid', 'the sandbox quotes tradeType exactInput only');
    }
    const amount = readUint(query, 'amount');
    const scenario = quoteScenarioFor('across', amount);
    if (scenario === 'rate-limited') throw new RateLimitedError(RATE_LIMIT_RETRY_AFTER_SECONDS);
    const inputToken = readAddress(query, 'inputToken');
    const outputToken = readAddress(query, 'outputToken');
    const originChainId = readChainId(context, query, 'originChainId');
    const destinationChainId = readChainId(context, query, 'destinationChainId');
    const depositor = readAddress(query, 'depositor');
    const recipient = readOptionalAddress(query, 'recipient') ?? depositor;
    const refundAddress = readOptionalAddress(query, 'refundAddress');
    const integratorId = request.query.get('integratorId');
    if (integratorId && !/^0x[0-9a-fA-F]{4}$/.test(integratorId)) {
      throw new RequestFieldError('integratorId', 'invalid', 'integratorId must be a 2-byte hex string');
    }
    const slippage = request.query.get('slippage') ?? 'auto';
    const appFee = request.query.get('appFee');
    if (appFee && !request.query.get('appFeeRecipient')) {
      throw new RequestFieldError('appFeeRecipient', 'missing', 'appFeeRecipient is required with appFee');
    }
    const appFeeRecipient = appFee ? readAddress(query, 'appFeeRecipient') : null;
    const refundOnOriginParam = readRefundOnOrigin(request.query.get('refundOnOrigin'));
    if (context.faults.isRouteUnavailable('across', [inputToken, outputToken])) {
      throw new RouteUnavailableError([inputToken, outputToken]);
    }
    const priced = quoteFor(context, {
      provider: 'across',
      originChainId,
      destinationChainId,
      inputToken,
      outputToken,
      amountIn: amount,
      slippageBps: slippage === 'auto' ? AUTO_SLIPPAGE_BPS : readFractionBps(slippage, 'slippage', 5000),
      appFeeBps: appFee ? readFractionBps(appFee, 'appFee', 9999) : 0,
    });
    // The `cctp` fault: a USDC→USDC leg goes over CCTP, as the Swap API routes it between CCTP chains.
    const cctp = context.faults.get('across')?.cctp === true && cctpRoutable(priced);
    const quote = cctp ? cctpQuote(priced) : priced;

    // api/swap/_utils.ts: refundOnOrigin defaults to whether the output is bridgeable (origin for B2B, destination
    // for B2A); api/_dexes/cross-swap-service.ts refuses `false` on a same-asset route.
    const sameAsset = acrossSameAsset(quote);
    const refundOnOrigin = refundOnOriginParam ?? sameAsset;
    if (sameAsset && !refundOnOrigin) {
      throw new RequestFieldError(
        'refundOnOrigin',
        'invalid',
        "Query param 'refundOnOrigin' must be 'true' for same-asset bridge swaps.",
      );
    }
    const client = context.clients.public(originChainId);
    const originContracts = contractsOn(context, 'originChainId', originChainId);
    // A CCTP leg's swapTx calls TokenMessengerV2, which the approval names as spender (strategy.ts
    // `originTxNeedsAllowance: true`; api/swap/approval/_service.ts `spender: crossSwapTx.to`).
    const target = cctp ? originContracts.cctpTokenMessenger : originContracts.acrossSpokePool;
    const native = isNative(inputToken);
    const { allowance, calls } = native
      ? { allowance: maxUint256, calls: [] }
      : await approvalCalls(client, {
          token: inputToken,
          symbol: quote.tokenIn.symbol,
          owner: depositor,
          spender: target,
          amount,
          approveAmount: maxUint256,
        });
    const balance = native
      ? await client.getBalance({ address: depositor })
      : await client.readContract({
          address: inputToken,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [depositor],
        });
    const nowSeconds = Math.floor(context.now() / 1000);
    const timing = acrossQuoteTiming({
      nowSeconds,
      // A destination swap only where Across has no bridgeable output to swap to on the origin (see
      // acrossOutputBridgeable): USDT→USDC or USDC→WETH is an origin swap, whose quote holds an hour.
      destinationSwap: !acrossOutputBridgeable(quote),
      destinationChainId,
    });
    // An app fee rides on the bridge leg and is paid by the MulticallHandler (api/_dexes/utils.ts): the deposit's
    // outputAmount includes it, as the indexer's /deposit then shows (S8).
    const message: Hex =
      appFeeRecipient !== null && quote.appFeeOut > 0n
        ? encodeAppFeeMessage({
            handler: contractsOn(context, 'destinationChainId', destinationChainId).acrossSpokePool,
            outputToken,
            recipient,
            feeRecipient: appFeeRecipient,
            fee: quote.appFeeOut,
            fallbackRecipient: refundOnOrigin ? zeroAddress : (refundAddress ?? depositor),
          })
        : '0x';
    const bridgedOutput = message === '0x' ? quote.expectedOut : quote.expectedOut + quote.appFeeOut;
    const data = cctp
      ? depositForBurnCalldata({
          amount,
          destinationChainId,
          recipient,
          usdc: inputToken,
          finalizer: contractsOn(context, 'destinationChainId', destinationChainId).multicall3,
          maxFee: quote.providerFeeIn,
        })
      : encodeFunctionData({
          abi: AcrossSpokePoolArtifact.abi,
          functionName: 'depositV3',
          args: [
            depositor,
            recipient,
            native ? context.tokens.weth(originChainId) : inputToken,
            outputToken,
            amount,
            bridgedOutput,
            BigInt(destinationChainId),
            zeroAddress,
            timing.quoteTimestamp,
            timing.quoteTimestamp + ACROSS_FILL_DEADLINE_BUFFER_SECONDS,
            0,
            message,
          ],
        });
    const value = native ? amount : 0n;
    const fees = await client.estimateFeesPerGas();
    const swapTx: AcrossSwapTx = {
      simulationSuccess: false,
      chainId: originChainId,
      to: target,
      data,
      value: value.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    };
    // Like Across, simulate only when nothing is missing; `gas` is present only after a successful simulation.
    if (calls.length === 0 && balance >= amount) {
      const gas = await client.estimateGas({ account: depositor, to: target, data, value }).catch(() => null);
      if (gas !== null) Object.assign(swapTx, { simulationSuccess: true, gas: gas.toString() });
    }
    // Quote scenario 911 (toolkit 9c840105): "0", which `!!gas` on the server's BigNumber reports as simulated.
    if (scenario === 'zero-gas') Object.assign(swapTx, { simulationSuccess: true, gas: '0' });
    const id = randomId(12).slice(2);
    context.quotes.addAcross({ id, depositor, recipient, refundAddress, quote, createdAt: context.now() });
    return jsonReply(
      200,
      acrossQuoteBody({
        id,
        quote,
        prices: context.prices,
        spender: target,
        allowance,
        balance,
        approvalTxns: calls.map((call) => ({ chainId: originChainId, ...call })),
        swapTx,
        originGas: {
          token: context.tokens.bySymbol(originChainId, 'ETH')!,
          amount: DEPOSIT_GAS * fees.maxFeePerGas,
        },
        quoteExpiryTimestamp: timing.quoteExpiryTimestamp,
        refundOnOrigin,
        bridgeProvider: cctp ? 'cctp' : 'across',
        refundTo: refundAddress ?? depositor,
      }),
    );
  };
}

/** api/swap/_utils.ts: `refundOnOrigin: optional(boolStr())`; absent means Across's default. */
function readRefundOnOrigin(raw: string | null): boolean | null {
  if (raw === null || raw === '') return null;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new RequestFieldError('refundOnOrigin', 'invalid', "refundOnOrigin must be 'true' or 'false'");
}
