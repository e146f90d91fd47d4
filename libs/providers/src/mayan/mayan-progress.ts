import { type LegProgress } from '../leg-progress';
import { optionalText, record, text, txHashOrNull } from '../response/json-fields';
import { humanToBaseUnits } from './human-to-base-units';

/** An explorer `/swap/trx/{hash}` answer as our progress (reference/providers.md §3.4). */
export function mayanProgress(body: unknown, targetDecimals: number): LegProgress {
  const answer = record(body, 'body');
  const providerStatus = text(answer.clientStatus, 'clientStatus');
  switch (providerStatus) {
    case 'COMPLETED':
      return {
        state: 'filled',
        providerStatus,
        destinationTxHash: txHashOrNull(answer.fulfillTxHash),
        actualOutputRaw: humanToBaseUnits(answer.toAmount, targetDecimals),
      };
    case 'REFUNDED':
      return {
        state: 'refunded',
        providerStatus,
        refundTxHash: txHashOrNull(answer.refundTxHash),
        reason: null,
      };
    case 'FAILED':
      // Not in Mayan's documented enum; third-party clients see it, so it is treated as terminal.
      return { state: 'failed', providerStatus, reason: optionalText(answer.status) };
    default:
      // INPROGRESS (and PENDING, seen in third-party code): only COMPLETED and REFUNDED are terminal.
      return { state: 'pending', providerStatus };
  }
}
