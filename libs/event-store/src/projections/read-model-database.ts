import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type ReadModelDb } from './projection';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  projection TEXT    NOT NULL,
  version    INTEGER NOT NULL,
  position   TEXT,
  events     INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (projection, version)
);
CREATE TABLE IF NOT EXISTS projection_quarantine (
  projection  TEXT    NOT NULL,
  version     INTEGER NOT NULL,
  position    TEXT    NOT NULL,
  stream_id   TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  event_id    TEXT    NOT NULL,
  type        TEXT    NOT NULL,
  reason      TEXT    NOT NULL,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (projection, version, position)
);
`;

/**
 * Opens (creating if needed) the read models' database: a file (shared by the processes of one host like the event
 * store: WAL, a busy timeout) or ':memory:'. synchronous=NORMAL: unlike the events, a read model can always be
 * rebuilt from the log, and a commit lost to a power cut loses its checkpoint with it, so it is projected again.
 */
export function openReadModelDatabase(file: string): ReadModelDb {
  const memory = file === ':memory:';
  if (!memory) mkdirSync(dirname(resolve(file)), { recursive: true });
  const db = new Database(memory ? file : resolve(file));
  try {
    db.pragma('busy_timeout = 5000');
    if (!memory) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
