import { type EventStore } from '@svc/event-store';
// Types only, as the SQLite records.
import type { Clock } from '@svc/platform';
import { type RequestRecords } from '../request-records.port';
import { EventStoreIdempotencyStore } from './event-store-idempotency-store.adapter';
import { EventStoreNonceStore } from './event-store-nonce-store.adapter';

export interface EventStoreRequestRecordsOptions {
  idempotencyRetentionSeconds: number;
  /** Time for reads (`binding`: which nonce buckets to read); a bind goes by its command's `now`. */
  clock?: Clock;
}

/**
 * Request records as streams in the event store (memory, EventStoreDB): nonces in buckets per partner, time window
 * and shard (EventStoreNonceStore), Idempotency-Keys one stream per key (EventStoreIdempotencyStore). Nothing of
 * their own to open or close.
 */
export function eventStoreRequestRecords(
  store: EventStore,
  options: EventStoreRequestRecordsOptions,
): RequestRecords {
  return {
    nonces: new EventStoreNonceStore(store, options.clock ? { clock: options.clock } : {}),
    idempotency: new EventStoreIdempotencyStore(store, {
      retentionSeconds: options.idempotencyRetentionSeconds,
    }),
    close: () => Promise.resolve(),
  };
}
