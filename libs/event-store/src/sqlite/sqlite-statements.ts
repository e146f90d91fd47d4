import type Database from 'better-sqlite3';
import { type EventRow } from './sqlite-event-row';

export interface StreamRow {
  revision: number;
  max_age: number | null;
  max_count: number | null;
}

type PageStatement = Database.Statement<[Record<string, number | string>], EventRow>;

const EVENT_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';
const LIVE = '(expires_at IS NULL OR expires_at > @now)';

/** Every statement of the SQLite store, prepared once per connection. */
export class SqliteStatements {
  readonly selectStream;
  readonly selectIds;
  readonly selectPosition;
  readonly insertEvent;
  readonly upsertStream;
  readonly resetExpiry;
  readonly trimStream;
  readonly deleteExpired;
  readonly readForwards;
  readonly readBackwards;
  readonly selectLastRevision;
  readonly selectHead;
  readonly selectCheckpoint;
  readonly upsertCheckpoint;
  readonly ping;
  /** A row no reader sees: probeWrite inserts it and rolls back. */
  readonly probeWrite;
  private readonly pages = new Map<number, PageStatement>();

  constructor(private readonly db: Database.Database) {
    this.selectStream = db.prepare<[string], StreamRow>(
      'SELECT revision, max_age, max_count FROM streams WHERE stream_id = ?',
    );
    this.selectIds = db.prepare<
      { streamId: string; from: number; to: number; now: number },
      { event_id: string }
    >(
      `SELECT event_id FROM events WHERE stream_id = @streamId AND revision BETWEEN @from AND @to AND ${LIVE} ORDER BY revision`,
    );
    this.selectPosition = db.prepare<[string, number], { position: number }>(
      'SELECT position FROM events WHERE stream_id = ? AND revision = ?',
    );
    this.insertEvent = db.prepare(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, expires_at)
       VALUES (@streamId, @revision, @id, @type, @data, @metadata, @recordedAt, @expiresAt)`,
    );
    this.upsertStream = db.prepare(
      `INSERT INTO streams (stream_id, revision, max_age, max_count) VALUES (@streamId, @revision, @maxAge, @maxCount)
       ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, max_age = excluded.max_age, max_count = excluded.max_count`,
    );
    this.resetExpiry = db.prepare(
      'UPDATE events SET expires_at = recorded_at + @maxAgeMs WHERE stream_id = @streamId',
    );
    this.trimStream = db.prepare('DELETE FROM events WHERE stream_id = ? AND revision <= ?');
    this.deleteExpired = db.prepare('DELETE FROM events WHERE expires_at IS NOT NULL AND expires_at <= ?');
    this.readForwards = db.prepare<{ streamId: string; from: number; limit: number; now: number }, EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = @streamId AND revision >= @from AND ${LIVE}
       ORDER BY revision LIMIT @limit`,
    );
    this.readBackwards = db.prepare<{ streamId: string; from: number; limit: number; now: number }, EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = @streamId AND revision <= @from AND ${LIVE}
       ORDER BY revision DESC LIMIT @limit`,
    );
    this.selectLastRevision = db.prepare<{ streamId: string; now: number }, { revision: number }>(
      `SELECT revision FROM events WHERE stream_id = @streamId AND ${LIVE} ORDER BY revision DESC LIMIT 1`,
    );
    this.selectHead = db.prepare<[], { head: number }>(
      'SELECT COALESCE(MAX(position), 0) AS head FROM events',
    );
    this.selectCheckpoint = db.prepare<[string], { position: number }>(
      'SELECT position FROM checkpoints WHERE subscription_id = ?',
    );
    this.upsertCheckpoint = db.prepare(
      `INSERT INTO checkpoints (subscription_id, position) VALUES (?, ?)
       ON CONFLICT (subscription_id) DO UPDATE SET position = excluded.position`,
    );
    this.ping = db.prepare<[], { ok: number }>('SELECT 1 AS ok');
    this.probeWrite = db.prepare<[string]>(
      'INSERT INTO checkpoints (subscription_id, position) VALUES (?, 0)',
    );
  }

  /**
   * Events in global order after @after up to @head, filtered by stream-id prefixes. One statement per
   * number of prefixes; prefixes compare with substr, so `_` and `%` in stream ids need no escaping.
   */
  page(prefixCount: number): PageStatement {
    let statement = this.pages.get(prefixCount);
    if (statement === undefined) {
      const terms = Array.from(
        { length: prefixCount },
        (_, i) => `substr(stream_id, 1, length(@p${i})) = @p${i}`,
      );
      const filter = terms.length === 0 ? '' : `AND (${terms.join(' OR ')})`;
      statement = this.db.prepare<Record<string, number | string>, EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE position > @after AND position <= @head AND ${LIVE} ${filter}
         ORDER BY position LIMIT @limit`,
      );
      this.pages.set(prefixCount, statement);
    }
    return statement;
  }
}
