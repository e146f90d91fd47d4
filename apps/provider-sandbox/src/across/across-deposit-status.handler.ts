import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { acrossStatus } from './across-status';
import { findAcrossDeposit } from './find-across-deposit';

/**
 * `GET /deposit/status`: 404 DepositNotFoundException until the watcher indexes the deposit (reference §2.4);
 * `index` picks one of several deposits in a transaction and `pagination` says how many there are.
 */
export function acrossDepositStatusHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const { transfer: t, pagination } = findAcrossDeposit(context, request.query);
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
        actionsSucceeded: actionsSucceeded(t),
        pagination,
      }),
    );
  };
}

/**
 * across-protocol/indexer services/deposits.ts: `includedActions && status === Filled ? callsFailedEventId ===
 * null : null`. Only the destination-action-failed scenario carries actions in the sandbox, and they fail.
 */
export function actionsSucceeded(t: AcrossTransfer): boolean | null {
  return t.scenario === 'destination-action-failed' && t.status === 'filled' ? false : null;
}
