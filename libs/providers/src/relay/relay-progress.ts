import { type LegProgress } from '../leg-progress';
import { list, optionalText, record, text, txHashOrNull } from '../response/json-fields';

/**
 * An `/intents/status/v3` answer as our progress (reference/providers.md §1.4, corrected by reviews/providers.md
 * §7 and D3).
 *
 * - `failure` is reported as `failed`, but it is NOT final by itself: Relay's own SDK says "'failure' is not
 *   immediately terminal due to the refund flow: pending -> failure -> pending -> refund" and waits before it
 *   believes one (relay-kit packages/sdk/src/utils/executeSteps/websocketHandlers.ts, isTerminalStatus and
 *   handleFailureStatusWithDelay). A failure is final only when no refund follows: "If the refund amount is not
 *   enough to cover the cost of gas, Relay will mark the bridge or swap as failed & no refund will be sent"
 *   (relay-docs references/api/api_core_concepts/refunds.mdx). This function only says what Relay says now; the
 *   settlement tracker holds a `failed` answer for `RelayAdapter.tracking.failureGraceMs` (RELAY_FAILURE_GRACE_MS)
 *   before it takes it as final, and a later `refund` or `success` answer wins.
 * - `delayed` ("destination fill delayed, still processing", docs get-intents-status-v3; not in the SDK's type enum)
 *   is pending, like every status this code does not know.
 * - `refund`: the status answer names the origin and destination chains but not which one paid the refund
 *   (relay-kit packages/sdk/src/types/api.ts, "/intents/status/v3": status, details, inTxHashes, txHashes,
 *   updatedAt, originChainId, destinationChainId, quoteCreatedAt), and Relay's docs have said both (an older
 *   refunds page: "on the destination chain"; the current one: "on the origin chain"). So `refundChainId` is null
 *   here; the adapter reads it from `/requests/v3` when it has an API key.
 */
export function relayProgress(body: unknown): LegProgress {
  const answer = record(body, 'body');
  const providerStatus = text(answer.status, 'status');
  const firstTxHash = txHashOrNull(list(answer.txHashes, 'txHashes')[0]);
  const details = optionalText(answer.details);
  switch (providerStatus) {
    case 'success':
      return { state: 'filled', providerStatus, destinationTxHash: firstTxHash, actualOutputRaw: null };
    case 'refund':
      return {
        state: 'refunded',
        providerStatus,
        refundTxHash: firstTxHash,
        reason: details,
        refundChainId: null,
      };
    case 'failure':
      // Not final on its own: see above (the tracker's failureGraceMs decides).
      return { state: 'failed', providerStatus, reason: details };
    case 'delayed':
      return { state: 'pending', providerStatus };
    default:
      // waiting | depositing | pending | submitted, and any status added later: keep polling.
      return { state: 'pending', providerStatus };
  }
}
