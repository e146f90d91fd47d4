import Database from 'better-sqlite3';

// The nonce row the service's SQLite nonce store keeps (its expiry with it), and one status body per attempt.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS nonces (partner_id TEXT NOT NULL, nonce TEXT NOT NULL, tuple_hash TEXT NOT NULL,
  expires_at INTEGER NOT NULL, PRIMARY KEY (partner_id, nonce)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS attempts (attempt_id TEXT PRIMARY KEY, partner_id TEXT NOT NULL, snapshot TEXT NOT NULL)
  WITHOUT ROWID;
`;

/** The service keeps a nonce for the ±5 min window plus a minute (NONCE_RETENTION_SECONDS). */
const NONCE_RETENTION_MS = 11 * 60 * 1000;

/**
 * The bare baseline's storage: what the platform allows for a durable nonce and a status row. Opened as the
 * service's event store opens its file (WAL, busy_timeout, SQLite's default synchronous), so a nonce is as durable
 * here as there and the difference in the bench is the service's own work.
 */
export class BareStore {
  private readonly insertNonce;
  private readonly selectTuple;
  private readonly selectSnapshot;

  constructor(private readonly db: Database.Database) {
    this.insertNonce = db.prepare<[string, string, string, number]>(
      'INSERT INTO nonces (partner_id, nonce, tuple_hash, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.selectTuple = db.prepare<[string, string], { tuple_hash: string }>(
      'SELECT tuple_hash FROM nonces WHERE partner_id = ? AND nonce = ?',
    );
    this.selectSnapshot = db.prepare<[string, string], { snapshot: string }>(
      'SELECT snapshot FROM attempts WHERE attempt_id = ? AND partner_id = ?',
    );
  }

  static open(file: string): BareStore {
    const db = new Database(file);
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    return new BareStore(db);
  }

  /** One INSERT keyed by partner and nonce; a reused nonce passes only for the identical request tuple. */
  useNonce(partnerId: string, nonce: string, tupleHash: string, now: number): boolean {
    if (this.insertNonce.run(partnerId, nonce, tupleHash, now + NONCE_RETENTION_MS).changes === 1)
      return true;
    return this.selectTuple.get(partnerId, nonce)?.tuple_hash === tupleHash;
  }

  /** One row by key: the stored status body of a partner's attempt. */
  snapshot(attemptId: string, partnerId: string): string | undefined {
    return this.selectSnapshot.get(attemptId, partnerId)?.snapshot;
  }

  /** Rows for the status reads, in one transaction (seeding is not what the baseline measures). */
  seed(rows: Iterable<{ attemptId: string; partnerId: string; snapshot: string }>): void {
    const insert = this.db.prepare<[string, string, string]>(
      'INSERT OR REPLACE INTO attempts (attempt_id, partner_id, snapshot) VALUES (?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const row of rows) insert.run(row.attemptId, row.partnerId, row.snapshot);
    })();
  }

  close(): void {
    this.db.close();
  }
}
