import { join } from 'node:path';
import { type EventStore } from '@svc/event-store';
import { eventStoreRequestRecords, openSqliteRequestRecords, type RequestRecords } from '@svc/gateway';
import { type AppConfig } from '../config/app-config';

/**
 * Binds the gateway's RequestRecords to what EVENT_STORE names. SQLite: tables in their own file beside the event
 * store's (DATA_DIR/requests.sqlite: its own write lock, so a nonce never waits behind an event append, and a
 * schema the event store does not own). EventStoreDB and memory: streams in `store`, which expire with maxAge: nonces
 * in buckets per partner, time window and shard (a bounded number of streams), Idempotency-Keys one stream per key
 * (docs/architecture.md, "The gateway's request records").
 */
export function openRequestRecords(
  config: Pick<AppConfig, 'store' | 'gateway'>,
  store: EventStore,
): RequestRecords {
  const idempotencyRetentionSeconds = config.gateway.idempotencyRetentionHours * 3600;
  switch (config.store.kind) {
    case 'sqlite':
      return openSqliteRequestRecords({
        file: join(config.store.dataDir, 'requests.sqlite'),
        idempotencyRetentionSeconds,
      });
    case 'memory':
    case 'eventstoredb':
      return eventStoreRequestRecords(store, { idempotencyRetentionSeconds });
  }
}
