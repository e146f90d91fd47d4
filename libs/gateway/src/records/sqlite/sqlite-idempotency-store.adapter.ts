import type Database from 'better-sqlite3';
import {
  type BeginRequest,
  decideIdempotency,
  evolveIdempotency,
  type IdempotencyCommand,
  type IdempotencyEvent,
  type IdempotencyOutcome,
  type IdempotencyState,
  initialIdempotencyState,
} from '@svc/domain';
import { decidedOutcome } from '../../idempotency/decided-outcome';
import { type IdempotencyStore, type SettleRequest } from '../../idempotency/idempotency-store.port';
import { ExpirySweep, type SweepOptions } from './expiry-sweep';
import { openRecordsDatabase, type RecordsDurability } from './open-records-database';

// One row per live key: `state` is the idempotency decider's state (JSON), `expires_at` (epoch ms) the retention
// after the acceptance that began the key's current run.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  partner_id TEXT    NOT NULL,
  key_digest TEXT    NOT NULL,
  state      TEXT    NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (partner_id, key_digest)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
`;

const SELECT = `
SELECT state, expires_at FROM idempotency_keys
WHERE partner_id = @partnerId AND key_digest = @keyDigest AND expires_at > @now`;
const UPSERT = `
INSERT INTO idempotency_keys (partner_id, key_digest, state, expires_at)
VALUES (@partnerId, @keyDigest, @state, @expiresAt)
ON CONFLICT (partner_id, key_digest) DO UPDATE SET state = excluded.state, expires_at = excluded.expires_at`;
const DELETE_EXPIRED = `
DELETE FROM idempotency_keys WHERE (partner_id, key_digest) IN (
  SELECT partner_id, key_digest FROM idempotency_keys WHERE expires_at <= ? LIMIT ?
)`;

export interface SqliteIdempotencyStoreOptions {
  file: string;
  retentionSeconds: number;
  /** NORMAL by default, as the event store. */
  durability?: RecordsDurability;
  sweep?: SweepOptions;
}

interface KeyRow {
  state: string;
  expires_at: number;
}

interface KeyRef {
  partnerId: string;
  keyDigest: string;
}

/**
 * Idempotency-Keys in their own SQLite table, one row per (partner, key digest), gone once the retention passed.
 * Each command reads the row, lets the decider decide on its state, and writes the state the decider's events
 * lead to, in one IMMEDIATE transaction: the write lock is taken before the read, so concurrent first begins
 * (from any connection or process) are decided one after the other and exactly one runs.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly select: Database.Statement<object, KeyRow>;
  private readonly upsert: Database.Statement<object>;
  private readonly deleteExpired: Database.Statement<[number, number]>;
  private readonly sweep: ExpirySweep;
  private readonly decide: Database.Transaction<
    (key: KeyRef, command: IdempotencyCommand) => { events: IdempotencyEvent[]; state: IdempotencyState }
  >;

  private constructor(
    private readonly db: Database.Database,
    private readonly retentionMs: number,
    sweep: SweepOptions | undefined,
  ) {
    this.select = db.prepare(SELECT);
    this.upsert = db.prepare(UPSERT);
    this.deleteExpired = db.prepare(DELETE_EXPIRED);
    this.sweep = new ExpirySweep((now, limit) => this.deleteExpired.run(now, limit).changes, sweep);
    this.decide = db.transaction((key: KeyRef, command: IdempotencyCommand) =>
      this.decideOnRow(key, command),
    );
  }

  static open(options: SqliteIdempotencyStoreOptions): SqliteIdempotencyStore {
    const db = openRecordsDatabase(options.file, SCHEMA, options.durability ?? 'NORMAL');
    return new SqliteIdempotencyStore(db, options.retentionSeconds * 1000, options.sweep);
  }

  begin(partnerId: string, keyDigest: string, command: BeginRequest): Promise<IdempotencyOutcome> {
    return new Promise((resolve) =>
      resolve(decidedOutcome(command, this.decide.immediate({ partnerId, keyDigest }, command))),
    );
  }

  settle(partnerId: string, keyDigest: string, command: SettleRequest): Promise<void> {
    return new Promise((resolve) => resolve(void this.decide.immediate({ partnerId, keyDigest }, command)));
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }

  /** Runs inside the transaction. A row past its retention is a new key, as an expired stream starts over. */
  private decideOnRow(key: KeyRef, command: IdempotencyCommand) {
    const { now } = command.data;
    const row = this.select.get({ ...key, now });
    const state = row ? (JSON.parse(row.state) as IdempotencyState) : initialIdempotencyState;
    const events = decideIdempotency(command, state);
    if (events.length > 0) {
      // The record lives the retention from the acceptance that began its current run; its result keeps that.
      const expiresAt = command.type === 'BeginRequest' || !row ? now + this.retentionMs : row.expires_at;
      const next = events.reduce(evolveIdempotency, state);
      this.upsert.run({ ...key, state: JSON.stringify(next), expiresAt });
      this.sweep.afterWrite(now);
    }
    return { events, state };
  }
}
