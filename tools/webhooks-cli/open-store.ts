import { join } from 'node:path';
import { EventStoreDbEventStore, type EventStore, SqliteEventStore } from '@svc/event-store';
import { ConfigError, loadServiceEnv } from '@svc/platform';

/** The store the service writes to, from the same environment (DATA_DIR, EVENT_STORE, EVENTSTOREDB_URL). */
export function openStore(env: Record<string, string | undefined>): { store: EventStore; where: string } {
  const config = loadServiceEnv(env);
  switch (config.EVENT_STORE) {
    case 'sqlite': {
      const file = join(config.DATA_DIR, 'events.sqlite');
      return { store: SqliteEventStore.open({ file }), where: `sqlite ${file}` };
    }
    case 'eventstoredb':
      // The URL may carry credentials: name the kind of store only.
      return {
        store: EventStoreDbEventStore.fromConnectionString(config.EVENTSTOREDB_URL!),
        where: 'eventstoredb',
      };
    case 'memory':
      throw new ConfigError('EVENT_STORE=memory lives inside the service process: the CLI cannot reach it');
  }
}
