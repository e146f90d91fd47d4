import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { usdValue } from '../pricing/compute-quote';
import { formatMicroUsd } from '../pricing/format-usd';
import { type SandboxContext } from '../sandbox-context';
import { acrossStatus } from './across-status';
import { findAcrossDeposit } from './find-across-deposit';

/** `GET /deposit`: the indexed deposit with `outputAmount`, the amount the filler delivers (reference §2.4). */
export function acrossDepositHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const t = findAcrossDeposit(context, request.query);
    const tokenIn = context.tokens.find(t.sourceChainId, t.inputToken);
    const inUsd = tokenIn
      ? usdValue(t.inputAmount, tokenIn.decimals, context.prices[tokenIn.symbol] ?? 0n)
      : 0n;
    const tokenOut = context.tokens.find(t.destinationChainId, t.outputToken);
    const outUsd = tokenOut
      ? usdValue(t.outputAmount, tokenOut.decimals, context.prices[tokenOut.symbol] ?? 0n)
      : 0n;
    const filled = t.status === 'filled';
    return Promise.resolve(
      jsonReply(200, {
        deposit: {
          id: t.depositId,
          depositId: t.depositId,
          originChainId: t.sourceChainId,
          destinationChainId: t.destinationChainId,
          depositor: t.depositor,
          recipient: t.recipient,
          inputToken: t.eventInputToken,
          inputAmount: t.inputAmount.toString(),
          outputToken: t.outputToken,
          outputAmount: t.outputAmount.toString(),
          swapOutputToken: null,
          swapOutputTokenAmount: null,
          message: t.message,
          exclusiveRelayer: t.exclusiveRelayer,
          exclusivityDeadline: t.exclusivityDeadline,
          fillDeadline: t.fillDeadline,
          quoteTimestamp: t.quoteTimestamp,
          depositTxHash: t.sourceTxHash,
          depositTxnRef: t.sourceTxHash,
          depositBlockNumber: Number(t.sourceBlockNumber),
          depositBlockTimestamp: new Date(t.createdAt).toISOString(),
          status: acrossStatus(t.status),
          fillTx: t.fillTxHash ?? null,
          fillTxnRef: t.fillTxHash ?? null,
          relayer: filled ? context.chains.accounts.fillers.across.address : null,
          fillBlockTimestamp: filled ? new Date(t.updatedAt).toISOString() : null,
          depositRefundTxHash: t.refundTxHash ?? null,
          depositRefundTxnRef: t.refundTxHash ?? null,
          bridgeFeeUsd: formatMicroUsd(inUsd > outUsd ? inUsd - outUsd : 0n),
          fillGasFeeUsd: '0',
          speedups: [],
        },
        pagination: { currentIndex: 0, maxIndex: 0 },
      }),
    );
  };
}
