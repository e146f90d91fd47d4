import { type EventStore } from '@svc/event-store';
import { type RequestRecords } from '../request-records.port';
import { EventStoreIdempotencyStore } from './event-store-idempotency-store.adapter';
import { EventStoreNonceStore } from './event-store-nonce-store.adapter';

/** Request records as streams in the event store (memory, EventStoreDB): nothing of their own to open or close. */
export function eventStoreRequestRecords(
  store: EventStore,
  options: { idempotencyRetentionSeconds: number },
): RequestRecords {
  return {
    nonces: new EventStoreNonceStore(store),
    idempotency: new EventStoreIdempotencyStore(store, {
      retentionSeconds: options.idempotencyRetentionSeconds,
    }),
    close: () => Promise.resolve(),
  };
}
