import { join } from 'node:path';
import {
  EventStoreDbEventStore,
  type EventStore,
  MemoryEventStore,
  SqliteEventStore,
} from '@svc/event-store';
import { type ServiceEnv } from '@svc/platform';

/** Binds the EventStore port to the adapter EVENT_STORE names. */
export function openEventStore(env: ServiceEnv): EventStore {
  switch (env.EVENT_STORE) {
    case 'memory':
      return new MemoryEventStore();
    case 'sqlite':
      return SqliteEventStore.open({ file: join(env.DATA_DIR, 'events.sqlite') });
    case 'eventstoredb':
      return EventStoreDbEventStore.fromConnectionString(env.EVENTSTOREDB_URL!);
  }
}
