export * from './gateway.module';
export * from './gateway.tokens';
export * from './http/api-error';
export * from './http/create-http-edge';
export * from './idempotency/idempotency-ledger';
export * from './idempotency/idempotency-store.port';
export * from './nonce/nonce-registry';
export * from './nonce/nonce-store.port';
export * from './records/request-records.port';
export * from './records/event-store/event-store-request-records';
export { EventStoreIdempotencyStore } from './records/event-store/event-store-idempotency-store.adapter';
export { EventStoreNonceStore } from './records/event-store/event-store-nonce-store.adapter';
export * from './records/sqlite/sqlite-request-records';
export * from './records/sqlite/sqlite-idempotency-store.adapter';
export * from './records/sqlite/sqlite-nonce-store.adapter';
export type { RecordsDurability } from './records/sqlite/open-records-database';
export type { SweepOptions } from './records/sqlite/expiry-sweep';
export * from './rate-limit/rate-limiter';
export { AttemptEventStreams, type LiveStatusRequest } from './sse/attempt-event-streams';
export { AttemptLiveFeed, type LiveFeedWatch, type LiveFeedWatcher } from './sse/attempt-live-feed';
export {
  DEFAULT_LIVE_STATUS_LIMITS,
  LIVE_STATUS_LIMITS,
  type LiveStatusLimits,
} from './sse/live-status-limits';
