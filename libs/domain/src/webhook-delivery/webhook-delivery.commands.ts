import { type WebhookEventKind } from '@svc/contract';

type Command<Type extends string, Data> = { type: Type; data: Data };

/** The outbox relay handed over a lifecycle event (at-least-once: the same eventId may arrive again). */
export type QueueWebhook = Command<
  'QueueWebhook',
  {
    eventId: string;
    event: WebhookEventKind;
    attemptId: string;
    partnerId: string;
    lifecycleRevision: number;
    occurredAt: number;
    now: number;
  }
>;

/** How the dispatcher classified one POST to the partner's callback URL. */
export type DeliveryResult =
  | { kind: 'success'; status: number }
  | { kind: 'gone'; status: 410 }
  | { kind: 'failure'; status: number | null; error: string; retryAfterMs: number | null };

/** The dispatcher tried the head event. `random` is uniform in [0, 1) and only jitters the retry delay. */
export type RecordDeliveryResult = Command<
  'RecordDeliveryResult',
  {
    eventId: string;
    now: number;
    random: number;
    result: DeliveryResult;
    /** How long the try took, recorded with it (the control plane lists it). */
    latencyMs?: number;
  }
>;

/**
 * Operator CLI or the partner's control plane: send a delivered or abandoned event again, or try one that waits
 * for its next retry now. `capped` (the partner's control plane): at most
 * WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour per event in any hour; an operator is not capped.
 */
export type RequestRedelivery = Command<
  'RequestRedelivery',
  { eventId: string; now: number; requestedBy: string; capped?: boolean }
>;

/**
 * The partner's control plane: send again every event of the attempt that occurred in [from, to) and has ended
 * (delivered or abandoned), in the order the attempt's lifecycle produced them. Events still pending are left to
 * their own pass. `capped`: an event at the redelivery cap is left out (RequestRedelivery).
 */
export type RequestRecovery = Command<
  'RequestRecovery',
  { from: number; to: number; now: number; requestedBy: string; capped?: boolean }
>;

/**
 * The history compaction (docs/webhooks.md "Retention"): summarise the stream's tries once every event of it was
 * delivered or abandoned and its newest event is older than `retentionMs` (at least
 * WEBHOOK_CONTROL_LIMITS.retentionDays). `queuedPositions`: the global log position of each event's WebhookQueued,
 * as the caller read the stream (or an earlier summary had it), kept in the summary for the control plane's index.
 */
export type CompactWebhookHistory = Command<
  'CompactWebhookHistory',
  { now: number; retentionMs: number; queuedPositions: Readonly<Record<string, string>> }
>;

export type WebhookDeliveryCommand =
  QueueWebhook | RecordDeliveryResult | RequestRedelivery | RequestRecovery | CompactWebhookHistory;
