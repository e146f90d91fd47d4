import type Database from 'better-sqlite3';
import { type StreamEvent } from '../aggregate-stream';
import { type Projected, type ProjectedEvents } from './projected-events';

/**
 * Where read models live: a SQLite database, a file beside the events (`DATA_DIR/read-models.sqlite`) or in memory
 * for a memory store. Projections write their own tables in it; the runner keeps their checkpoints in the same
 * transaction as their writes.
 */
export type ReadModelDb = Database.Database;

export { type Projected } from './projected-events';

/**
 * A read model, declared once (emmett's `projection({ name, canHandle, handle, init, truncate })`, with a guard and
 * an upcast hook): what it reads and how it recognises a well-formed event (ProjectedEvents: its name, streams, event
 * types, guard and upcast), and how each event changes its tables. `ProjectionRunner` runs it on every store,
 * checkpointed; nothing else follows the log for it.
 */
export interface Projection<E extends StreamEvent = StreamEvent> extends ProjectedEvents<E> {
  /**
   * The shape of its tables. A new version is a new read model: its tables are named after it (so builds of two
   * versions can share one file during a rolling deploy), its checkpoint starts from the beginning of the log.
   */
  readonly version: number;
  /** Creates its tables if missing (idempotent). */
  init(db: ReadModelDb): void;
  /** Empties its tables (an operator's rebuild). */
  truncate(db: ReadModelDb): void;
  /**
   * Applies one event, inside the runner's transaction (an error quarantines the event, its writes undone). `page` is
   * scratch space for one page: what evolve keeps there instead of writing it at once, `flush` writes.
   */
  evolve(db: ReadModelDb, event: Projected<E>, page: Map<string, unknown>): void;
  /** Writes what evolve kept in `page`, before the checkpoint moves in the same transaction. */
  flush?(db: ReadModelDb, page: Map<string, unknown>): void;
}

/** Declares a projection (typed). */
export function projection<E extends StreamEvent>(definition: Projection<E>): Projection<E> {
  return definition;
}

/** True for a plain JSON object (not null, not an array): the first check of every guard. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One `T` per read-model database, made on first use (a read model's prepared statements): what a projection's
 * evolve and its queries share for the same database.
 */
export function perReadModelDb<T>(make: (db: ReadModelDb) => T): (db: ReadModelDb) => T {
  const made = new WeakMap<ReadModelDb, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
