import { type IdempotencyStore } from '../idempotency/idempotency-store.port';
import { type NonceStore } from '../nonce/nonce-store.port';

/**
 * The gateway's short-lived records of requests: nonce bindings and Idempotency-Keys. Streams in the event store
 * (memory, EventStoreDB) or tables made for them (SQLite); the composition picks by EVENT_STORE.
 */
export interface RequestRecords {
  nonces: NonceStore;
  idempotency: IdempotencyStore;
  /** Releases what the records opened themselves (not the event store they may live in). */
  close(): Promise<void>;
}
