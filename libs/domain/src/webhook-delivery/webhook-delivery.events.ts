import { storedEventShapes, type WebhookEventKind } from '@svc/contract';

/** A lifecycle event of `attempt-<attemptId>` entered the attempt's webhook queue. Times are epoch ms. */
export interface WebhookQueuedData {
  /** The id of the lifecycle event: redeliveries and replays carry the same id. */
  eventId: string;
  event: WebhookEventKind;
  attemptId: string;
  partnerId: string;
  /** Revision of the lifecycle event in `attempt-<attemptId>`: the payload is built from the attempt at it. */
  lifecycleRevision: number;
  occurredAt: number;
  queuedAt: number;
}

/** A try failed and another is scheduled. `attempt` is 1-based and counts tries of the current pass. */
export interface WebhookAttemptedData {
  eventId: string;
  attempt: number;
  at: number;
  /** null: no HTTP response (time-out, connection refused, TLS). */
  httpStatus: number | null;
  error: string;
  nextAttemptAt: number;
  /** From sending the request to the end of its answer (or the failure); absent on events stored before it was. */
  latencyMs?: number;
}

export interface WebhookDeliveredData {
  eventId: string;
  attempt: number;
  at: number;
  httpStatus: number;
  latencyMs?: number;
}

export interface WebhookAbandonedData {
  eventId: string;
  attempt: number;
  at: number;
  reason: string;
  httpStatus: number | null;
  latencyMs?: number;
}

/** An operator asked to send a delivered or abandoned event again (same eventId, new pass). */
export interface WebhookRedeliveryRequestedData {
  eventId: string;
  at: number;
  requestedBy: string;
}

/**
 * Someone asked to try an event that waits for its next retry now rather than at its scheduled time: the same pass
 * (its tries so far still count), due at `at`.
 */
export interface WebhookRetryRequestedData {
  eventId: string;
  at: number;
  requestedBy: string;
}

type Event<Type extends string, Data> = { type: Type; data: Data };

/** Events of `webhook-<attemptId>`: one stream per attempt, so per-attempt order is one stream's order. */
export type WebhookDeliveryEvent =
  | Event<'WebhookQueued', WebhookQueuedData>
  | Event<'WebhookAttempted', WebhookAttemptedData>
  | Event<'WebhookDelivered', WebhookDeliveredData>
  | Event<'WebhookAbandoned', WebhookAbandonedData>
  | Event<'WebhookRedeliveryRequested', WebhookRedeliveryRequestedData>
  | Event<'WebhookRetryRequested', WebhookRetryRequestedData>;

export type WebhookDeliveryEventType = WebhookDeliveryEvent['type'];

/** What a stored webhook delivery event must hold for evolveWebhookDelivery to fold it: a known type, plain data. */
export const webhookDeliveryEventShapes = storedEventShapes<WebhookDeliveryEvent>({
  WebhookQueued: true,
  WebhookAttempted: true,
  WebhookDelivered: true,
  WebhookAbandoned: true,
  WebhookRedeliveryRequested: true,
  WebhookRetryRequested: true,
});
