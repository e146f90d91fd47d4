import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { usdValue } from '../pricing/compute-quote';
import { formatMicroUsd } from '../pricing/format-usd';
import { type SandboxContext } from '../sandbox-context';
import { reportedOutput } from '../scenarios/reported-output';
import { acrossStatus } from './across-status';
import { findAcrossDeposit } from './find-across-deposit';

/**
 * `GET /deposit`: the indexed deposit (`index` as for `/deposit/status`) with `outputAmount`, the amount the
 * filler delivers (reference §2.4), or once filled what it reports delivering. A deposit whose destination action
 * fails reports the bridged token it pays out as `outputToken`, and the token the swap should have produced as
 * `swapOutputToken` with the quote's minimum, as the indexer does for deposits with a destination swap
 * (across-protocol/indexer packages/indexer-api/src/dtos/deposits.dto.ts).
 */
export function acrossDepositHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const { transfer: t, pagination } = findAcrossDeposit(context, request.query);
    const filled = t.status === 'filled';
    // A deposit with a destination swap bridges another token from the start, so its bridge leg shows throughout.
    const swap = t.scenario === 'destination-action-failed';
    const reported = filled || swap ? reportedOutput(t) : { token: t.outputToken, amount: t.outputAmount };
    // The indexer's outputAmount is the bridge leg, paid to the MulticallHandler: with an app fee it includes the
    // fee (S8). A failed destination action drained the whole leg, which the plan already reports.
    const output = swap ? reported : { ...reported, amount: reported.amount + t.appFeeAmount };
    const tokenIn = context.tokens.find(t.sourceChainId, t.inputToken);
    const inUsd = tokenIn
      ? usdValue(t.inputAmount, tokenIn.decimals, context.prices[tokenIn.symbol] ?? 0n)
      : 0n;
    const tokenOut = context.tokens.find(t.destinationChainId, output.token);
    const outUsd = tokenOut
      ? usdValue(output.amount, tokenOut.decimals, context.prices[tokenOut.symbol] ?? 0n)
      : 0n;
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
          outputToken: output.token,
          outputAmount: output.amount.toString(),
          swapOutputToken: swap ? t.outputToken : null,
          swapOutputTokenAmount: swap ? t.minimumOutput.toString() : null,
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
        pagination,
      }),
    );
  };
}
