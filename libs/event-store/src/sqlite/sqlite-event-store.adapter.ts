import type Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { AppendSignal } from '../append-signal';
import type * as port from '../event-store.port';
import { planAppend, type StreamHead } from '../plan-append';
import { decodeSequencePosition, encodeSequencePosition } from '../sequence-position';
import { type SerialisedEvent, serialiseEvent } from '../serialise-event';
import { StoreLifecycle } from '../store-lifecycle';
import { subscribeLivePolling } from '../subscribe-live-polling';
import { subscribePolling } from '../subscribe-polling';
import { OtherWritersPoll } from './other-writers-poll';
import { openSqliteReadOnly } from './open-sqlite-read-only';
import { openSqliteDatabase } from './sqlite-schema';
import { toRecorded } from './sqlite-event-row';
import { SqliteStatements } from './sqlite-statements';

export interface SqliteEventStoreOptions {
  file: string;
  /** Time used for recordedAt and expiry; tests pass a controllable clock. */
  clock?: () => Date;
  /**
   * While a subscription runs, how often the store looks for appends made by other processes on the same file
   * (one `PRAGMA data_version`; the subscriptions read only when it changed). This process's appends wake the
   * subscriptions that follow their streams at once.
   */
  pollIntervalMs?: number;
}

/** Ends probeWrite's transaction: better-sqlite3 rolls back a transaction whose function throws. */
class ProbeRolledBack extends Error {}

// Expired rows are deleted during appends, at most this often: reads already hide them.
const PRUNE_INTERVAL_MS = 1000;
const NO_LIMIT = -1;

/** Event store in one SQLite file, shared safely by the processes of one host. */
export class SqliteEventStore implements port.EventStore, port.StreamTruncation {
  private readonly statements: SqliteStatements;
  private readonly signal = new AppendSignal();
  private readonly lifecycle = new StoreLifecycle();
  private readonly otherWriters: OtherWritersPoll;
  private lastPruneMs = Number.NEGATIVE_INFINITY;
  private logReads = 0;

  private constructor(
    private readonly db: Database.Database,
    private readonly clock: () => Date,
    pollIntervalMs: number,
  ) {
    this.statements = new SqliteStatements(db);
    this.otherWriters = new OtherWritersPoll(db, this.signal, pollIntervalMs);
  }

  static open(options: SqliteEventStoreOptions): SqliteEventStore {
    const db = openSqliteDatabase(resolve(options.file));
    return new SqliteEventStore(db, options.clock ?? (() => new Date()), options.pollIntervalMs ?? 50);
  }

  /**
   * An existing store, opened read-only (audit and operator tools): reads as `open` does, every write (append,
   * a subscription's checkpoint) fails with SQLITE_READONLY. Throws SqliteStoreUnavailableError for a missing file
   * or one that is not an event store.
   */
  static openReadOnly(options: Pick<SqliteEventStoreOptions, 'file' | 'clock'>): SqliteEventStore {
    const db = openSqliteReadOnly(resolve(options.file));
    return new SqliteEventStore(db, options.clock ?? (() => new Date()), 50);
  }

  append(streamId: string, events: port.NewEvent[], options: port.AppendOptions): Promise<port.AppendResult> {
    return this.lifecycle.run(() => {
      const rows = events.map(serialiseEvent);
      // IMMEDIATE takes the write lock before reading the stream head, so the revision check and the insert
      // see the same head even with writers in other processes.
      const { result, written } = this.db
        .transaction(() => this.appendInTransaction(streamId, rows, options))
        .immediate();
      if (written) this.signal.notify(streamId);
      return result;
    });
  }

  readStream(streamId: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    return this.lifecycle.run(() => {
      const backwards = options.direction === 'backwards';
      const statement = backwards ? this.statements.readBackwards : this.statements.readForwards;
      const rows = statement.all({
        streamId,
        from: options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0),
        limit: options.maxCount ?? NO_LIMIT,
        now: this.clock().getTime(),
      });
      return rows.map(toRecorded);
    });
  }

  readStreamRevision(streamId: string): Promise<number | 'no_stream'> {
    return this.lifecycle.run(() => {
      const row = this.statements.selectLastRevision.get({ streamId, now: this.clock().getTime() });
      return row === undefined ? 'no_stream' : row.revision;
    });
  }

  /** Deletes the rows: the stream's revision is kept in `streams`, and positions are never reused (AUTOINCREMENT). */
  truncateStreamBefore(streamId: string, beforeRevision: number): Promise<void> {
    return this.lifecycle.run(() => void this.statements.trimStream.run(streamId, beforeRevision - 1));
  }

  readAll(options: port.ReadAllOptions = {}): Promise<port.RecordedEvent[]> {
    return this.lifecycle.run(
      () => this.readPage(options.after, options.streamPrefixes ?? [], options.maxCount).events,
    );
  }

  readAllPage(options: port.ReadAllOptions = {}): Promise<port.ReadAllPage> {
    return this.lifecycle.run(() =>
      this.readPage(options.after, options.streamPrefixes ?? [], options.maxCount),
    );
  }

  async subscribe(options: port.SubscribeOptions): Promise<port.Subscription> {
    const subscription = await subscribePolling(
      this.lifecycle,
      {
        readPage: (after, prefixes, limit) => {
          this.logReads++;
          return this.readPage(after, prefixes, limit);
        },
        readCheckpoint: (id) => this.checkpointOf(id),
        storeCheckpoint: (id, position) =>
          void this.statements.upsertCheckpoint.run(id, decodeSequencePosition(position)),
        signal: this.signal,
      },
      options,
    );
    this.otherWriters.start();
    return subscription;
  }

  async subscribeLive(options: port.LiveSubscribeOptions): Promise<port.Subscription> {
    const subscription = await subscribeLivePolling(
      this.lifecycle,
      {
        readPage: (after, prefixes, limit) => {
          this.logReads++;
          return this.readPage(after, prefixes, limit);
        },
        head: () => encodeSequencePosition(this.statements.selectHead.get()?.head ?? 0),
        signal: this.signal,
      },
      options,
    );
    this.otherWriters.start();
    return subscription;
  }

  /** How many times this store's subscriptions read the log: a diagnostic, and what the contract counts wake-ups by. */
  get subscriptionReads(): number {
    return this.logReads;
  }

  readCheckpoint(subscriptionId: string): Promise<port.Position | undefined> {
    return this.lifecycle.run(() => this.checkpointOf(subscriptionId));
  }

  ping(): Promise<void> {
    return this.lifecycle.run(() => void this.statements.ping.get());
  }

  /**
   * A write that needs new pages, rolled back: it fails as an append would when the file cannot grow (SQLITE_FULL:
   * a full disk, max_page_count), is read-only or stays locked, and leaves nothing behind (nothing reaches the WAL).
   */
  probeWrite(): Promise<void> {
    return this.lifecycle.run(() => {
      const pageSize = this.db.pragma('page_size', { simple: true }) as number;
      try {
        this.db
          .transaction(() => {
            this.statements.probeWrite.run(`$write-probe-${'x'.repeat(2 * pageSize)}`);
            throw new ProbeRolledBack();
          })
          .immediate();
      } catch (error) {
        if (!(error instanceof ProbeRolledBack)) throw error;
      }
    });
  }

  /** A PRAGMA on this store's own connection (operators' tools and tests: `max_page_count`, `page_count`...). */
  pragma(source: string, options?: Database.PragmaOptions): unknown {
    return this.db.pragma(source, options);
  }

  close(): Promise<void> {
    return this.lifecycle.close(() => {
      this.otherWriters.stop();
      this.db.close();
    });
  }

  private appendInTransaction(
    streamId: string,
    rows: SerialisedEvent[],
    options: port.AppendOptions,
  ): { result: port.AppendResult; written: boolean } {
    const now = this.clock().getTime();
    const stream = this.statements.selectStream.get(streamId);
    const ids = rows.map((row) => row.id);
    const plan = planAppend(
      streamId,
      ids,
      options.expectedRevision,
      this.head(streamId, stream?.revision, now),
    );
    if (plan.kind === 'duplicate') {
      const existing = this.statements.selectPosition.get(streamId, plan.lastRevision);
      const position = encodeSequencePosition(existing?.position ?? 0);
      return { result: { nextRevision: plan.lastRevision, position }, written: false };
    }
    const maxAge = options.maxAgeSeconds ?? stream?.max_age ?? null;
    const maxCount = options.maxCount ?? stream?.max_count ?? null;
    if (stream !== undefined && maxAge !== null && maxAge !== stream.max_age) {
      this.statements.resetExpiry.run({ streamId, maxAgeMs: maxAge * 1000 });
    }
    const expiresAt = maxAge === null ? null : now + maxAge * 1000;
    let position = 0;
    rows.forEach((row, i) => {
      const revision = plan.firstRevision + i;
      const inserted = this.statements.insertEvent.run({
        ...row,
        streamId,
        revision,
        recordedAt: now,
        expiresAt,
      });
      position = Number(inserted.lastInsertRowid);
    });
    const nextRevision = plan.firstRevision + rows.length - 1;
    this.statements.upsertStream.run({ streamId, revision: nextRevision, maxAge, maxCount });
    if (maxCount !== null) this.statements.trimStream.run(streamId, nextRevision - maxCount);
    if (now - this.lastPruneMs >= PRUNE_INTERVAL_MS) {
      this.lastPruneMs = now;
      this.statements.deleteExpired.run(now);
    }
    return { result: { nextRevision, position: encodeSequencePosition(position) }, written: true };
  }

  private checkpointOf(subscriptionId: string): port.Position | undefined {
    const row = this.statements.selectCheckpoint.get(subscriptionId);
    return row === undefined ? undefined : encodeSequencePosition(row.position);
  }

  /** The stream as planAppend judges an append against it: its revision and the ids of its live events. */
  private head(streamId: string, revision: number | undefined, now: number): StreamHead {
    return {
      revision,
      idsAt: (from, count) =>
        this.statements.selectIds
          .all({ streamId, from, to: from + count - 1, now })
          .map((row) => row.event_id),
    };
  }

  private readPage(
    after: port.Position | undefined,
    prefixes: readonly string[],
    limit = NO_LIMIT,
  ): { events: port.RecordedEvent[]; scannedTo: port.Position | undefined } {
    // The head is read first and bounds the page: a later append cannot slip in below it (positions are
    // assigned under the write lock), so "scanned up to head" is exact.
    const head = this.statements.selectHead.get()?.head ?? 0;
    const parameters: Record<string, number | string> = {
      after: after === undefined ? 0 : decodeSequencePosition(after),
      head,
      limit,
      now: this.clock().getTime(),
    };
    prefixes.forEach((prefix, i) => (parameters[`p${i}`] = prefix));
    const events = this.statements.page(prefixes.length).all(parameters).map(toRecorded);
    const full = limit !== NO_LIMIT && events.length >= limit;
    return { events, scannedTo: full ? (events.at(-1)?.position ?? after) : encodeSequencePosition(head) };
  }
}
