import { type LegProgress } from '../leg-progress';
import { list, optionalText, record, text, txHashOrNull } from '../response/json-fields';

/** An `/intents/status/v3` answer as our progress (reference/providers.md §1.4). */
export function relayProgress(body: unknown): LegProgress {
  const answer = record(body, 'body');
  const providerStatus = text(answer.status, 'status');
  const firstTxHash = txHashOrNull(list(answer.txHashes, 'txHashes')[0]);
  const details = optionalText(answer.details);
  switch (providerStatus) {
    case 'success':
      return { state: 'filled', providerStatus, destinationTxHash: firstTxHash, actualOutputRaw: null };
    case 'refund':
      return { state: 'refunded', providerStatus, refundTxHash: firstTxHash, reason: details };
    case 'failure':
      return { state: 'failed', providerStatus, reason: details };
    default:
      // waiting | depositing | pending | submitted | delayed, and any status added later: keep polling.
      return { state: 'pending', providerStatus };
  }
}
