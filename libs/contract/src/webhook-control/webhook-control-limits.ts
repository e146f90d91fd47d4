/** Bounds of the webhook control plane and the live status stream (docs/webhooks.md). */
export const WEBHOOK_CONTROL_LIMITS = {
  /** Events per page of GET /webhooks/events. */
  pageSize: 100,
  /** The widest range one POST /webhooks/recover takes. */
  maxRecoverSpanDays: 7,
  /** How far back events are guaranteed to be listed and recoverable (webhook streams are never deleted). */
  retentionDays: 30,
  /** A cursor is opaque, but never longer than this. */
  maxCursorLength: 256,
  /** Live status streams (GET /attempts/{attemptId}/events) one partner may hold open at once, per instance. */
  maxLiveStreamsPerPartner: 20,
  /** A comment line on an idle live status stream, so proxies keep it open. */
  heartbeatMs: 15_000,
} as const;
