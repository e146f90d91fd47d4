import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type SandboxContext } from '../sandbox-context';
import { acrossStatus } from './across-status';
import { findAcrossDeposit } from './find-across-deposit';

/** `GET /deposit/status`: 404 DepositNotFoundException until the watcher indexes the deposit (reference §2.4). */
export function acrossDepositStatusHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const t = findAcrossDeposit(context, request.query);
    return Promise.resolve(
      jsonReply(200, {
        status: acrossStatus(t.status),
        originChainId: t.sourceChainId,
        depositId: t.depositId,
        depositTxHash: t.sourceTxHash,
        depositTxnRef: t.sourceTxHash,
        fillTx: t.fillTxHash ?? null,
        fillTxnRef: t.fillTxHash ?? null,
        destinationChainId: t.destinationChainId,
        depositRefundTxHash: t.refundTxHash ?? null,
        depositRefundTxnRef: t.refundTxHash ?? null,
        actionsSucceeded: null,
        pagination: { currentIndex: 0, maxIndex: 0 },
      }),
    );
  };
}
