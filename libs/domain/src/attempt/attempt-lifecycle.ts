import { type AttemptStatus, isTerminalAttemptStatus, type WebhookEventKind } from '@svc/contract';
import { type AttemptEventType } from './attempt.events';

/**
 * What each attempt event means for the attempt's lifecycle: the status it puts the attempt in, or null for a fact
 * that changes no status. Keyed by every event type, so a new event does not compile until it is placed here.
 */
export const LIFECYCLE_STATUS_OF: Readonly<Record<AttemptEventType, AttemptStatus | null>> = {
  AttemptPrepared: 'prepared',
  EvidenceReported: null,
  AuthorizationSigned: null,
  SourceTransactionConfirmed: null,
  SourceTransactionReverted: null,
  SourceTransactionMismatched: null,
  SourceTransactionUnknown: null,
  LegPending: null,
  LegFillRejected: null,
  LegDelayed: null,
  LegOwed: null,
  LegSettled: null,
  LegFillSeen: null,
  LegFillReorged: null,
  SourceTransactionReorged: null,
  SettledFillVanished: null,
  LegFailed: null,
  AttemptWalletSubmitted: 'wallet_submitted',
  AttemptProviderPending: 'provider_pending',
  AttemptSettled: 'settled',
  AttemptFailed: 'failed',
  AttemptExpired: 'expired',
};

/** The webhook each lifecycle status is announced by; there is intentionally none for `prepared` or `expired`. */
export const WEBHOOK_EVENT_OF_STATUS: Readonly<Record<AttemptStatus, WebhookEventKind | null>> = {
  prepared: null,
  wallet_submitted: 'wallet_submitted',
  provider_pending: 'provider_pending',
  settled: 'settled',
  failed: 'failed',
  expired: null,
};

/** The status a stored event (by its type) puts the attempt in; null for a fact, or a type the attempt never had. */
export function lifecycleStatusOf(eventType: string): AttemptStatus | null {
  return Object.hasOwn(LIFECYCLE_STATUS_OF, eventType)
    ? LIFECYCLE_STATUS_OF[eventType as AttemptEventType]
    : null;
}

/** The webhook a stored event (by its type) is announced by, if any. */
export function webhookEventOf(eventType: string): WebhookEventKind | null {
  const status = lifecycleStatusOf(eventType);
  return status === null ? null : WEBHOOK_EVENT_OF_STATUS[status];
}

/** Whether a stored event (by its type) ends the attempt. */
export function endsAttempt(eventType: string): boolean {
  const status = lifecycleStatusOf(eventType);
  return status !== null && isTerminalAttemptStatus(status);
}
