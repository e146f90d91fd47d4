/**
 * A webhook body (spec: Events). Only what verification needs is typed; the rest is an attempt snapshot, and
 * receivers tolerate fields they do not know. Status polling stays the source of truth.
 */
export interface WebhookEvent {
  eventId: string;
  /** `wallet_submitted`, `provider_pending`, `settled` or `failed`; kept open so a new kind does not break parsing. */
  event: string;
  attemptId?: string;
  partnerId?: string;
  [field: string]: unknown;
}
