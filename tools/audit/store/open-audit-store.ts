import { join } from 'node:path';
import { EventStoreDbEventStore, type EventStore, SqliteEventStore } from '@svc/event-store';
import { ConfigError, type ServiceEnv } from '@svc/platform';
import { ReadOnlyEventStore } from './read-only-event-store';

export interface AuditStore {
  store: EventStore;
  /** What was opened and how, for the banner; never a connection string (it may carry credentials). */
  where: string;
  /** Where the gateway keeps request records outside the event store (SQLite), if anywhere. */
  requestsFile: string | null;
}

/**
 * The store the service writes to, from the same environment (EVENT_STORE, DATA_DIR, EVENTSTOREDB_URL), opened for
 * reading only. SQLite: the existing file, opened read-only by SQLite itself (a missing file or one that is not an
 * event store is refused, never created). EventStoreDB has no read-only connection: the audit's own guard refuses
 * every write, and a user with read access only is the way to make the server refuse them too.
 */
export function openAuditStore(
  config: Pick<ServiceEnv, 'EVENT_STORE' | 'DATA_DIR' | 'EVENTSTOREDB_URL'>,
): AuditStore {
  switch (config.EVENT_STORE) {
    case 'sqlite': {
      const file = join(config.DATA_DIR, 'events.sqlite');
      return {
        store: new ReadOnlyEventStore(SqliteEventStore.openReadOnly({ file })),
        where: `sqlite ${file} (opened read-only)`,
        requestsFile: join(config.DATA_DIR, 'requests.sqlite'),
      };
    }
    case 'eventstoredb':
      return {
        store: new ReadOnlyEventStore(EventStoreDbEventStore.fromConnectionString(config.EVENTSTOREDB_URL!)),
        where: 'eventstoredb (no read-only connection exists: the audit refuses every write itself)',
        requestsFile: null,
      };
    case 'memory':
      throw new ConfigError('EVENT_STORE=memory lives inside the service process: the audit cannot read it');
  }
}
