import { type LegProgress } from '../leg-progress';
import { list, optionalRecord, optionalText, record, text, txHashOrNull } from '../response/json-fields';

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
  const details = relayFailReason(answer);
  switch (providerStatus) {
    case 'success':
      return { state: 'filled', providerStatus, destinationTxHash: firstTxHash, actualOutputRaw: null };
    // `fallback` is terminal: relay-kit's polling path ends on it exactly as on `refund` ("Transaction failed:
    // Refunded", relayprotocol/relay-kit packages/sdk/src/utils/transaction.ts:182), and relay-docs names it among the
    // statuses that carry a failReason (changelog.mdx, 2026-08-07; api_guides/webhooks.mdx). Provider review N8.
    case 'fallback':
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

/**
 * Why Relay failed or refunded, in its own words (provider review N9): `failReason` (a code such as
 * `SOLVER_CAPACITY_EXCEEDED`) and, when the refund itself failed, `refundFailReason` (`AMOUNT_TOO_LOW_TO_REFUND`,
 * `MANUAL_REFUND_REQUIRED`, ...), both on `/intents/status/v3` since 2026-08-07 (relay-docs changelog.mdx; the
 * `/requests/v3` record carries the same two fields, relay-kit packages/sdk/src/types/api.ts), then `details`, the
 * only reason before them. `N/A` says nothing.
 */
export function relayFailReason(answer: Record<string, unknown>): string | null {
  const code = (value: unknown) => {
    const text = optionalText(value);
    return text === null || text === 'N/A' ? null : text;
  };
  const failReason = code(answer.failReason);
  const refundFailReason = code(answer.refundFailReason);
  const details = optionalText(answer.details);
  const reasons = [
    failReason,
    refundFailReason === null ? null : `refund failed: ${refundFailReason}`,
    failReason === null && refundFailReason === null ? details : null,
  ].filter((r): r is string => r !== null);
  return reasons.length === 0 ? null : reasons.join('; ');
}

/** The `data` of a `/requests/v3` record, for its failReason (relayFailReason reads it the same way). */
export function relayRequestData(body: unknown): Record<string, unknown> | undefined {
  const requests = optionalRecord(body)?.requests;
  return Array.isArray(requests) ? optionalRecord(optionalRecord(requests[0])?.data) : undefined;
}
