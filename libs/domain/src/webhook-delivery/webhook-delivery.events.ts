import { isArrayOf, isPlainData, storedEventShapes, type WebhookEventKind } from '@svc/contract';

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

/** One event of the queue as a compaction summarised it: where it ended and what its tries were, not each try. */
export interface CompactedWebhookEvent {
  eventId: string;
  event: WebhookEventKind;
  lifecycleRevision: number;
  occurredAt: number;
  status: 'delivered' | 'abandoned';
  /** Tries of its last pass, and how the last try ended (as the queue entry had them). */
  attempts: number;
  lastError: string | null;
  lastStatus: number | null;
  /** Every try of every pass, and when the first and the last ended. */
  deliveries: number;
  firstTryAt: number | null;
  lastTryAt: number | null;
  /**
   * The global log position of its WebhookQueued (opaque, the store's): the control plane's index keeps its row in
   * place from it when it is projected again after the truncation.
   */
  queuedPosition?: string;
}

/**
 * Every event of the stream before this one was delivered or abandoned, and its newest was older than the retention:
 * their tries are summarised here, in queue order, and the stream is truncated before this event (the attempt's own
 * stream is never truncated, so every body can still be built). Times are epoch ms.
 */
export interface WebhookHistoryCompactedData {
  attemptId: string;
  partnerId: string;
  at: number;
  /** The newest time an event of the stream before this one carried. */
  lastActivityAt: number;
  events: CompactedWebhookEvent[];
}

type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * The delivery events of `webhook-<attemptId>`: one stream per attempt, so per-attempt order is one stream's order.
 * The stream also holds WebhookHistoryCompacted (WebhookStreamEvent), once its history is compacted.
 */
export type WebhookDeliveryEvent =
  | Event<'WebhookQueued', WebhookQueuedData>
  | Event<'WebhookAttempted', WebhookAttemptedData>
  | Event<'WebhookDelivered', WebhookDeliveredData>
  | Event<'WebhookAbandoned', WebhookAbandonedData>
  | Event<'WebhookRedeliveryRequested', WebhookRedeliveryRequestedData>
  | Event<'WebhookRetryRequested', WebhookRetryRequestedData>;

export type WebhookHistoryCompactedEvent = Event<'WebhookHistoryCompacted', WebhookHistoryCompactedData>;

/** Every event of `webhook-<attemptId>`: what the webhook delivery decider folds and decides. */
export type WebhookStreamEvent = WebhookDeliveryEvent | WebhookHistoryCompactedEvent;

export type WebhookDeliveryEventType = WebhookDeliveryEvent['type'];

const DELIVERY_EVENT_SHAPES = {
  WebhookQueued: true,
  WebhookAttempted: true,
  WebhookDelivered: true,
  WebhookAbandoned: true,
  WebhookRedeliveryRequested: true,
  WebhookRetryRequested: true,
} as const;

/** What a stored webhook delivery event must hold for evolveWebhookDelivery to fold it: a known type, plain data. */
export const webhookDeliveryEventShapes = storedEventShapes<WebhookDeliveryEvent>(DELIVERY_EVENT_SHAPES);

/** The same for every event of the stream, its history summary included: the decider's guards. */
export const webhookStreamEventShapes = storedEventShapes<WebhookStreamEvent>({
  ...DELIVERY_EVENT_SHAPES,
  WebhookHistoryCompacted: (data) =>
    typeof data['attemptId'] === 'string' &&
    typeof data['partnerId'] === 'string' &&
    typeof data['lastActivityAt'] === 'number' &&
    isArrayOf(data['events'], (e) => isPlainData(e) && typeof e['eventId'] === 'string'),
});
