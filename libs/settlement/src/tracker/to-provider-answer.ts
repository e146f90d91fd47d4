import { type ProviderAnswer } from '@svc/domain';
import { type StatusResult } from '@svc/providers';

/** A provider adapter's status result in the tracking workflow's terms (bigints become base-10 strings). */
export function toProviderAnswer(result: StatusResult): ProviderAnswer {
  if (!result.ok)
    return {
      state: 'unavailable',
      reason: result.failure.reason,
      retryAfterMs: result.failure.retryAfterMs ?? null,
    };
  const p = result.progress;
  switch (p.state) {
    case 'pending':
      return {
        state: 'pending',
        providerStatus: p.providerStatus,
        ...(p.fillDeadlineAt != null ? { fillDeadlineAt: p.fillDeadlineAt } : {}),
      };
    case 'filled':
      return {
        state: 'filled',
        providerStatus: p.providerStatus,
        destinationTxHash: p.destinationTxHash,
        actualOutputRaw: p.actualOutputRaw?.toString() ?? null,
        destinationActionFailed: p.destinationActionFailed ?? null,
        ...(p.destinationActionUnreported
          ? { destinationActionUnreported: p.destinationActionUnreported }
          : {}),
      };
    case 'refunded':
      return {
        state: 'refunded',
        providerStatus: p.providerStatus,
        refundTxHash: p.refundTxHash,
        refundChainId: p.refundChainId ?? null,
        reason: p.reason,
        refundToken: p.refundToken ?? null,
      };
    case 'failed':
      return { state: 'failed', providerStatus: p.providerStatus, reason: p.reason };
  }
}
