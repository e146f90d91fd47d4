import type Database from 'better-sqlite3';
import {
  decideNonce,
  initialNonceState,
  NonceRefusedError,
  type NonceState,
  type UseNonce,
} from '@svc/domain';
// Types only: the child processes of the race tests load this file without the platform's decorators.
import type { Clock } from '@svc/platform';
import { NONCE_RETENTION_SECONDS } from '../../nonce/nonce-retention';
import { type NonceStore } from '../../nonce/nonce-store.port';
import { ExpirySweep, type SweepOptions } from './expiry-sweep';
import { openRecordsDatabase, type RecordsDurability } from './open-records-database';

// One row per live binding; `expires_at` (epoch ms) is when the auth window and its margin have passed.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS nonces (
  partner_id TEXT    NOT NULL,
  nonce      TEXT    NOT NULL,
  tuple_hash TEXT    NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (partner_id, nonce)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS nonces_expiry ON nonces (expires_at);
`;

// Binds an unused nonce (no row, or an expired one) in one statement; returns a row only when it bound.
const BIND = `
INSERT INTO nonces (partner_id, nonce, tuple_hash, expires_at)
VALUES (@partnerId, @nonce, @tupleHash, @expiresAt)
ON CONFLICT (partner_id, nonce) DO UPDATE
  SET tuple_hash = excluded.tuple_hash, expires_at = excluded.expires_at
  WHERE nonces.expires_at <= @now
RETURNING tuple_hash`;
const HOLDER = `SELECT tuple_hash FROM nonces WHERE partner_id = ? AND nonce = ? AND expires_at > ?`;
const DELETE_EXPIRED = `
DELETE FROM nonces WHERE (partner_id, nonce) IN (
  SELECT partner_id, nonce FROM nonces WHERE expires_at <= ? LIMIT ?
)`;

export interface SqliteNonceStoreOptions {
  file: string;
  /** Time for reads (`binding`); a bind judges expiry at its command's `now`. */
  clock?: Clock;
  /** NORMAL by default, as the event store. */
  durability?: RecordsDurability;
  sweep?: SweepOptions;
}

interface HolderRow {
  tuple_hash: string;
}

/**
 * Nonce bindings in their own SQLite table, one row per (partner, nonce), gone once NONCE_RETENTION_SECONDS have
 * passed: by then the timestamp check refuses any request that could carry the nonce.
 */
export class SqliteNonceStore implements NonceStore {
  private readonly bindStatement: Database.Statement<object, HolderRow>;
  private readonly holder: Database.Statement<[string, string, number], HolderRow>;
  private readonly deleteExpired: Database.Statement<[number, number]>;
  private readonly sweep: ExpirySweep;

  private constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
    sweep: SweepOptions | undefined,
  ) {
    this.bindStatement = db.prepare(BIND);
    this.holder = db.prepare(HOLDER);
    this.deleteExpired = db.prepare(DELETE_EXPIRED);
    this.sweep = new ExpirySweep((now, limit) => this.deleteExpired.run(now, limit).changes, sweep);
  }

  static open(options: SqliteNonceStoreOptions): SqliteNonceStore {
    const db = openRecordsDatabase(options.file, SCHEMA, options.durability ?? 'NORMAL');
    return new SqliteNonceStore(db, options.clock ?? { now: () => Date.now() }, options.sweep);
  }

  binding(partnerId: string, nonce: string): Promise<NonceState> {
    return new Promise((resolve) => resolve(this.bindingAt(partnerId, nonce, this.clock.now())));
  }

  use(partnerId: string, nonce: string, command: UseNonce): Promise<boolean> {
    return new Promise((resolve) => resolve(this.bind(partnerId, nonce, command)));
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }

  private bind(partnerId: string, nonce: string, command: UseNonce): boolean {
    const { tupleHash, now } = command.data;
    const expiresAt = now + NONCE_RETENTION_SECONDS * 1000;
    // A binding seen live by the insert and gone before the read was swept by another process: bind again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.bindStatement.get({ partnerId, nonce, tupleHash, expiresAt, now })) {
        this.sweep.afterWrite(now);
        return true;
      }
      const held = this.bindingAt(partnerId, nonce, now);
      if (held.status === 'used') return this.judge(command, held);
    }
    throw new Error(`nonce ${nonce}: its binding kept changing under the store`);
  }

  /** Another request bound the nonce first: the decider judges this tuple against the binding that holds. */
  private judge(command: UseNonce, held: NonceState): boolean {
    try {
      decideNonce(command, held);
      return true;
    } catch (err) {
      if (err instanceof NonceRefusedError) return false;
      throw err;
    }
  }

  private bindingAt(partnerId: string, nonce: string, now: number): NonceState {
    const row = this.holder.get(partnerId, nonce, now);
    return row ? { status: 'used', tupleHash: row.tuple_hash } : initialNonceState;
  }
}
