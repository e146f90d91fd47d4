/** Bounds of the webhook control plane and the live status stream (docs/webhooks.md). */
export const WEBHOOK_CONTROL_LIMITS = {
  /** Events per page of GET /webhooks/events. */
  pageSize: 100,
  /**
   * Delivery tries listed per event (its latest); `deliveryCount` and `deliveriesOmitted` say how many there are. A
   * page's size is bounded however often an event was tried (security review N-L8).
   */
  maxDeliveriesListedPerEvent: 20,
  /**
   * Redeliveries of one event (POST /webhooks/redeliver, a retry brought forward, a recovery sending it again) in any
   * hour: each adds a pass of up to 8 tries to the attempt's webhook stream (security review N-L8). One more answers
   * `429 webhook_redelivery_rate_limited` (a recovery leaves the event out and says so). Decided from the stream's own
   * events, so it holds across replicas.
   */
  maxRedeliveriesPerEventPerHour: 10,
  /** The widest range one POST /webhooks/recover takes. */
  maxRecoverSpanDays: 7,
  /**
   * Attempts one POST /webhooks/recover sends again at most; more: the answer carries a continuation. One attempt is
   * one durable append, and a recovery is backlog work that yields to live webhooks: on SQLite on 2 cores a call at
   * the cap took about 0.1 s alone and under 0.8 s beside another partner's live webhooks (docs/webhooks.md).
   */
  maxRecoverAttemptsPerCall: 100,
  /**
   * How long every try of an event stays listed at least (WEBHOOK_HISTORY_RETENTION_DAYS may say longer, never
   * shorter). After it, an ended event's tries are compacted into counts; the event itself stays listed, redeliverable
   * and recoverable for as long as the service runs (docs/webhooks.md "Retention").
   */
  retentionDays: 30,
  /** A cursor (and a recovery's continuation) is opaque, but never longer than this. */
  maxCursorLength: 256,
  /** Live status streams (GET /attempts/{attemptId}/events) one partner may hold open at once, per instance. */
  maxLiveStreamsPerPartner: 20,
  /**
   * Live status streams one service instance holds open at once, all partners together (about 18 kB of heap each, so
   * about 18 MB at the cap; docs/webhooks.md). Per instance: N instances hold up to N times this, and N × 20 per
   * partner.
   */
  maxLiveStreamsPerInstance: 1_000,
  /** A comment line on an idle live status stream, so proxies keep it open. */
  heartbeatMs: 15_000,
} as const;
