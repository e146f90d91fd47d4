import Database from 'better-sqlite3';

/** The file is not there, or is not an event store: a read-only open never creates one. */
export class SqliteStoreUnavailableError extends Error {
  override readonly name = 'SqliteStoreUnavailableError' as const;
}

/**
 * Opens an existing event store file read-only (SQLite's own SQLITE_OPEN_READONLY: any write fails with
 * SQLITE_READONLY), for tools that must never change the store. No schema is created, no journal mode is set; a
 * reader in WAL mode still uses the file's `-wal` and `-shm` companions, as every reader does.
 */
export function openSqliteReadOnly(file: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new SqliteStoreUnavailableError(`cannot open ${file} read-only (${(error as Error).message})`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => row.name);
    for (const table of ['events', 'streams', 'checkpoints']) {
      if (!tables.includes(table)) throw new SqliteStoreUnavailableError(`${file} has no ${table} table`);
    }
    return db;
  } catch (error) {
    db.close();
    if (error instanceof SqliteStoreUnavailableError) throw error;
    throw new SqliteStoreUnavailableError(`cannot read ${file} (${(error as Error).message})`);
  }
}
