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
 * readers run beside the single writer, busy_timeout makes a writer wait for the lock instead of failing, and
 * synchronous=FULL makes every commit durable.
 */
export function openSqliteDatabase(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // A committed event survives a power cut, not only a crash: better-sqlite3's SQLite defaults WAL connections to
    // synchronous=NORMAL (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1), under which the last commits can vanish with the power.
    // Events are money facts (a settlement, a claim), so every connection asks for FULL: the WAL is synced per commit.
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
