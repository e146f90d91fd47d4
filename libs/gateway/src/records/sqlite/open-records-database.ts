import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * How a connection's commits reach the disk (SQLite's `synchronous`, per connection). NORMAL syncs the WAL at
 * checkpoints: a commit survives a process crash or restart, and a power cut may lose the last ones. That is what
 * the event store's connections run with (better-sqlite3 builds SQLite with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 for
 * a file already in WAL mode), and the records' default. FULL syncs at every commit.
 */
export type RecordsDurability = 'FULL' | 'NORMAL';

/**
 * Opens (creating if needed) the request-records file, which the processes of one host share as they share the
 * event store's: WAL lets readers run beside the single writer, busy_timeout makes a writer wait for the lock
 * instead of failing. Each store opens its own connection and creates its own table.
 */
export function openRecordsDatabase(
  file: string,
  schema: string,
  durability: RecordsDurability,
): Database.Database {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability}`);
    db.exec(schema);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
