import { type LegProgress } from '../leg-progress';
import { record, text, txHashOrNull } from '../response/json-fields';

/** A `/deposit/status` answer as our progress (reference/providers.md §2.4). */
export function acrossProgress(body: unknown): LegProgress {
  const answer = record(body, 'body');
  const providerStatus = text(answer.status, 'status');
  switch (providerStatus) {
    case 'filled':
    case 'slowFilled':
      return {
        state: 'filled',
        providerStatus,
        destinationTxHash: txHashOrNull(answer.fillTxnRef) ?? txHashOrNull(answer.fillTx),
        actualOutputRaw: null,
      };
    case 'refunded':
      return {
        state: 'refunded',
        providerStatus,
        refundTxHash: txHashOrNull(answer.depositRefundTxnRef) ?? txHashOrNull(answer.depositRefundTxHash),
        reason: null,
      };
    case 'deposit-failed':
      return { state: 'failed', providerStatus, reason: 'gasless deposit failed' };
    default:
      // pending, slowFillRequested, expired (a refund is coming with the next settlement bundle),
      // deposit-pending, and anything added later.
      return { state: 'pending', providerStatus };
  }
}
