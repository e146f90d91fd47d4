import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

// `position` is AUTOINCREMENT so a number is never reused after deletions: subscriptions store positions.
// `expires_at` is copied from the stream's maxAge at append time, so reads and pruning need no join.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id   TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  event_id    TEXT    NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at INTEGER NOT NULL,
  expires_at  INTEGER,
  UNIQUE (stream_id, revision)
);
CREATE INDEX IF NOT EXISTS events_expiry ON events (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS streams (
  stream_id TEXT    PRIMARY KEY,
  revision  INTEGER NOT NULL,
  max_age   INTEGER,
  max_count INTEGER
);
CREATE TABLE IF NOT EXISTS checkpoints (
  subscription_id TEXT    PRIMARY KEY,
  position        INTEGER NOT NULL
);
`;

/**
 * Opens (creating if needed) an event store file that several processes on one host may share: WAL lets
 * readers run beside the single writer, and busy_timeout makes a writer wait for the lock instead of failing.
 */
export function openSqliteDatabase(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
