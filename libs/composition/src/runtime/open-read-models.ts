import { join } from 'node:path';
import { openReadModelDatabase, type ReadModelDb } from '@svc/event-store';
import { type AppConfig } from '../config/app-config';

/**
 * The read models' database for EVENT_STORE (docs/adr/0007-read-models-out-of-the-heap.md). SQLite: a file beside
 * the events (DATA_DIR/read-models.sqlite), shared by every process on the host like the events are. EventStoreDB:
 * the same file on the instance's own volume (each replica keeps its read models, checkpointed). Memory: in memory,
 * like the events.
 */
export function openReadModels(store: AppConfig['store']): ReadModelDb {
  return openReadModelDatabase(
    store.kind === 'memory' ? ':memory:' : join(store.dataDir, 'read-models.sqlite'),
  );
}
