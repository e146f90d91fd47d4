import { join } from 'node:path';
import {
  EventStoreDbEventStore,
  type EventStore,
  MemoryEventStore,
  SqliteEventStore,
  traceAppends,
  watchWrites,
} from '@svc/event-store';
import { tracingEnabled } from '@svc/platform';
import { type AppConfig } from '../config/app-config';

/**
 * Binds the EventStore port to the adapter EVENT_STORE names, its appends traced (traceAppends) when tracing is on
 * (startTracing runs first; with tracing off no call pays for that wrapper) and their outcomes watched for /readyz
 * (watchWrites: the gateway's request records and every feature write through this one store).
 */
export function openEventStore(store: AppConfig['store']): EventStore {
  const adapter = openAdapter(store);
  return watchWrites(tracingEnabled() ? traceAppends(adapter) : adapter);
}

function openAdapter(store: AppConfig['store']): EventStore {
  switch (store.kind) {
    case 'memory':
      return new MemoryEventStore();
    case 'sqlite':
      return SqliteEventStore.open({ file: join(store.dataDir, 'events.sqlite') });
    case 'eventstoredb':
      return EventStoreDbEventStore.fromConnectionString(store.eventStoreDbUrl!);
  }
}
