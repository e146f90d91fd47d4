import { join } from 'node:path';
import {
  openReadModelDatabase,
  ReadModelSnapshotter,
  type ReadModelDb,
  restoreReadModelSnapshot,
} from '@svc/event-store';
import { type Logger } from '@svc/platform';
import { type AppConfig } from '../config/app-config';

/** The read models of one process, and what to call at its shutdown. */
export interface OpenReadModels {
  db: ReadModelDb;
  close(): Promise<void>;
}

/**
 * The read models' database for EVENT_STORE (docs/adr/0007-read-models-out-of-the-heap.md). SQLite: a file beside
 * the events (READ_MODELS_DIR, default DATA_DIR: read-models.sqlite), shared by every process on the host like the
 * events are. EventStoreDB: the same file on the instance's own volume (each replica keeps its read models,
 * checkpointed). Memory: in memory, like the events.
 *
 * With READ_MODELS_SNAPSHOT_DIR (a directory the replicas share): a process that starts without a read-model file
 * begins from the newest snapshot there (its projections then read only the events recorded since), and the process
 * writes a new snapshot whenever the newest is READ_MODELS_SNAPSHOT_MINUTES old.
 */
export function openReadModels(
  store: AppConfig['store'],
  logger?: Logger,
  instanceId = 'instance',
): OpenReadModels {
  if (store.kind === 'memory') {
    return unshared(openReadModelDatabase(':memory:'));
  }
  const file = join(store.readModels.dir, 'read-models.sqlite');
  const { snapshotDir, snapshotEveryMs } = store.readModels;
  if (snapshotDir === null) {
    return unshared(openReadModelDatabase(file));
  }
  const started = Date.now();
  const restored = restoreReadModelSnapshot(file, snapshotDir);
  if (restored)
    logger?.info(
      {
        snapshot: restored.file,
        takenAt: new Date(restored.takenAt).toISOString(),
        ms: Date.now() - started,
      },
      'read models restored from a snapshot',
    );
  const db = openReadModelDatabase(file);
  const snapshotter = new ReadModelSnapshotter(db, {
    dir: snapshotDir,
    everyMs: snapshotEveryMs,
    instanceId,
    logger: {
      info: (message, fields) => logger?.info(fields, message),
      warn: (message, fields) => logger?.warn(fields, message),
    },
  });
  snapshotter.start();
  return {
    db,
    close: async () => {
      await snapshotter.stop();
      db.close();
    },
  };
}

function unshared(db: ReadModelDb): OpenReadModels {
  return {
    db,
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}
