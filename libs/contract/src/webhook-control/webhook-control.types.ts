import { type WebhookEventKind } from '../enums/webhook-event-kind';

/** Where a webhook event stands: queued (not tried yet), retrying (a try failed, the next is scheduled), or ended. */
export type WebhookEventStatus = 'queued' | 'retrying' | 'delivered' | 'abandoned';

/** One try of a webhook to your callback URL. */
export interface WebhookDeliveryRecord {
  /** ISO 8601: when the try ended. */
  at: string;
  /** The HTTP status your endpoint answered; null when it gave none (time-out, connection refused). */
  statusCode: number | null;
  /** From sending the request to the end of the answer; null for tries recorded before latencies were. */
  latencyMs: number | null;
  outcome: 'delivered' | 'failed' | 'abandoned';
}

/** A lifecycle event of one of your attempts, with the latest delivery tries of its webhook. */
export interface WebhookEventRecord {
  eventId: string;
  event: WebhookEventKind;
  attemptId: string;
  /** ISO 8601: the lifecycle change, as in the webhook body. */
  occurredAt: string;
  status: WebhookEventStatus;
  /** ISO 8601: when the next try is due (retrying only), else null. */
  nextAttemptAt: string | null;
  /** The latest tries of every pass, oldest first: at most WEBHOOK_CONTROL_LIMITS.maxDeliveriesListedPerEvent. */
  deliveries: WebhookDeliveryRecord[];
  /** Every try ever made of this event (all passes), listed or not. Additive: absent from older answers. */
  deliveryCount?: number;
  /** Tries counted in `deliveryCount` and not in `deliveries` (older than the listed ones, or compacted). */
  deliveriesOmitted?: number;
  /**
   * true: the event's tries up to its history's compaction (after the retention, docs/webhooks.md "Retention") are
   * counted, no longer listed; `deliveries` lists only tries made since. The event itself stays listed, redeliverable
   * and recoverable. Additive.
   */
  historyCompacted?: boolean;
  /** ISO 8601: when the first try ended (null: not tried yet); kept through a compaction. */
  firstDeliveryAt?: string | null;
  /** ISO 8601: when the last try ended (null: not tried yet); kept through a compaction. */
  lastDeliveryAt?: string | null;
}

/** GET /webhooks/events and GET /webhooks/events/after/{cursor}. */
export interface WebhookEventsResponse {
  apiVersion: string;
  /** Oldest first (in the order they were queued), at most WEBHOOK_CONTROL_LIMITS.pageSize. */
  events: WebhookEventRecord[];
  /** Continue with GET /webhooks/events/after/{nextCursor}; also when `hasMore` is false, to see later events. */
  nextCursor: string;
  hasMore: boolean;
}

/** POST /webhooks/redeliver/{eventId}. */
export interface WebhookRedeliverResponse {
  apiVersion: string;
  eventId: string;
  attemptId: string;
  /**
   * `redelivery_queued`: the event had been delivered or abandoned and goes out again (a new pass of tries, behind
   * the attempt's pending events). `retry_now`: it was waiting for its next retry, which is due now. `none`: its
   * retry was due already.
   */
  action: 'redelivery_queued' | 'retry_now' | 'none';
  status: WebhookEventStatus;
}

/** POST /webhooks/recover: every ended event of your attempts that occurred in [from, to). */
export interface WebhookRecoverRequest {
  /** ISO 8601 instant with a zone, inclusive. */
  from: string;
  /** ISO 8601 instant with a zone, exclusive; at most WEBHOOK_CONTROL_LIMITS.maxRecoverSpanDays after `from`. */
  to: string;
  /** The `continuation` of the previous page of this recovery (same `from` and `to`); absent: the first page. */
  continuation?: string;
}

/** One event a recovery sends again. */
export interface RecoveredWebhookEvent {
  eventId: string;
  event: WebhookEventKind;
  attemptId: string;
  occurredAt: string;
}

/** An event a recovery left out: it was sent again as often as an hour allows (maxRedeliveriesPerEventPerHour). */
export interface RateLimitedWebhookEvent extends RecoveredWebhookEvent {
  /** ISO 8601: from when it may be sent again (redeliver it, or recover its range again, then). */
  retryAt: string;
}

export interface WebhookRecoverResponse {
  apiVersion: string;
  from: string;
  to: string;
  /** By attempt, each attempt's events in lifecycle order: the order they are sent in. */
  recovered: RecoveredWebhookEvent[];
  /**
   * Ended events of this page's attempts in the range that were NOT sent again because each was already sent again
   * WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour times in the last hour. Present only when there are some,
   * and only in the answer of the request that left them out (a replay lists what was sent). Additive.
   */
  rateLimited?: RateLimitedWebhookEvent[];
  /**
   * Present when the range has attempts beyond this page (at most WEBHOOK_CONTROL_LIMITS.maxRecoverAttemptsPerCall
   * attempts per call): send the same `from` and `to` again with it to recover the next page. Absent: done.
   */
  continuation?: string;
}
