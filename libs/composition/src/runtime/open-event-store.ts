import { join } from 'node:path';
import {
  EventStoreDbEventStore,
  type EventStore,
  MemoryEventStore,
  SqliteEventStore,
} from '@svc/event-store';
import { type AppConfig } from '../config/app-config';

/** Binds the EventStore port to the adapter EVENT_STORE names. */
export function openEventStore(store: AppConfig['store']): EventStore {
  switch (store.kind) {
    case 'memory':
      return new MemoryEventStore();
    case 'sqlite':
      return SqliteEventStore.open({ file: join(store.dataDir, 'events.sqlite') });
    case 'eventstoredb':
      return EventStoreDbEventStore.fromConnectionString(store.eventStoreDbUrl!);
  }
}
