import { randomUUID } from 'node:crypto';
import { type StreamEvent } from '../../aggregate-stream';
import { type EventStore } from '../../event-store.port';
import { isRecord, projection, type ReadModelDb } from '../projection';

/** A small read model for the seam's tests: the sum of `n` per counter, from `Added` events of `counter-` streams. */
export type Added = { type: 'Added'; data: { n: number } };

export const sums = (version = 1) =>
  projection<Added>({
    name: 'sums',
    version,
    streamPrefixes: ['counter-'],
    eventTypes: ['Added'],
    isEvent: (e: StreamEvent): e is Added => isRecord(e.data) && Number.isInteger(e.data['n']),
    init: (db) =>
      db.exec(
        `CREATE TABLE IF NOT EXISTS sums_v${version} (id TEXT PRIMARY KEY, total INTEGER, seen INTEGER)`,
      ),
    truncate: (db) => db.exec(`DELETE FROM sums_v${version}`),
    evolve: (db, event) => {
      db.prepare(
        `INSERT INTO sums_v${version} (id, total, seen) VALUES (?, ?, 1)
         ON CONFLICT (id) DO UPDATE SET total = total + excluded.total, seen = seen + 1`,
      ).run(event.streamId, event.data.n);
      if (event.data.n === 13) throw new Error('unlucky'); // after a write: the savepoint must undo it
    },
  });

/** The read model's totals per counter. */
export const totals = (db: ReadModelDb, version = 1) =>
  Object.fromEntries(
    db
      .prepare<[], { id: string; total: number }>(`SELECT id, total FROM sums_v${version} ORDER BY id`)
      .all()
      .map((r) => [r.id, r.total]),
  );

/** Appends one `Added` per number to a counter. */
export const add = (store: EventStore, stream: string, ...ns: unknown[]) =>
  store.append(
    stream,
    ns.map((n) => ({ id: randomUUID(), type: 'Added', data: { n } })),
    { expectedRevision: 'any' },
  );
