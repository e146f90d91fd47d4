import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BeginRequest } from '@svc/domain';
import { ManualClock } from '@svc/testing';
import { NONCE_RETENTION_SECONDS } from '../../nonce/nonce-retention';
import { type RequestRecords } from '../request-records.port';
import { describeRequestRecordsContract } from '../testing/request-records.contract';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store.adapter';
import { SqliteNonceStore } from './sqlite-nonce-store.adapter';
import { openSqliteRequestRecords } from './sqlite-request-records';
import { race } from './testing/race';
import { startChildRacer } from './testing/start-child-racer';

describeRequestRecordsContract('tables in SQLite (three connections)', ({ idempotencyRetentionSeconds }) => {
  const dir = mkdtempSync(join(tmpdir(), 'request-records-'));
  // A nested path: open() creates missing parent directories.
  const file = join(dir, 'data', 'requests.sqlite');
  const time = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
  const open = () =>
    Array.from({ length: 3 }, () =>
      openSqliteRequestRecords({ file, idempotencyRetentionSeconds, clock: time }),
    );
  let connections = open();
  const closeAll = () => Promise.all(connections.map((records) => records.close()));
  return Promise.resolve({
    connections: () => connections,
    now: () => time.now(),
    advanceClock: (ms) => time.advance(ms),
    restart: async () => {
      await closeAll();
      connections = open();
    },
    cleanup: async () => {
      await closeAll();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});

describe('request records in SQLite tables', () => {
  let dir: string;
  let file: string;
  const t0 = Date.parse('2026-11-25T10:00:00Z');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'request-records-'));
    file = join(dir, 'requests.sqlite');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const rowsIn = (table: 'nonces' | 'idempotency_keys'): number => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  /** The test process and two child processes run the same race on one file. */
  async function raceThreeProcesses(what: 'nonces' | 'keys', count: number): Promise<unknown[][]> {
    const children = ['child-1', 'child-2'].map((racer) => startChildRacer(file, { what, racer, count }));
    const records: RequestRecords = openSqliteRequestRecords({
      file,
      idempotencyRetentionSeconds: 24 * 3600,
    });
    try {
      await Promise.all(children.map((child) => child.ready));
      children.forEach((child) => child.go());
      const own = await race(records, { what, racer: 'parent', count });
      return [own, ...(await Promise.all(children.map((child) => child.done)))];
    } finally {
      await records.close();
    }
  }

  it('binds each nonce to exactly one tuple when three processes race on every nonce', async () => {
    const count = 1500;
    const results = await raceThreeProcesses('nonces', count);
    for (let i = 0; i < count; i++) expect(results.filter((bound) => bound[i] === true)).toHaveLength(1);
    expect(rowsIn('nonces')).toBe(count);
  }, 60_000);

  it('runs each key exactly once when three processes begin every key', async () => {
    const count = 200;
    const results = await raceThreeProcesses('keys', count);
    for (let i = 0; i < count; i++) {
      expect(results.map((outcomes) => outcomes[i]).sort()).toEqual(['in_progress', 'in_progress', 'run']);
    }
  }, 60_000);

  it('forgets a binding once its retention passed: the timestamp check refuses its requests by then', async () => {
    const nonces = SqliteNonceStore.open({ file, clock: new ManualClock(t0) });
    const use = (tupleHash: string, now: number) =>
      nonces.use('p', 'nonce-aaaaaaaaaaaaaaaa', { type: 'UseNonce', data: { tupleHash, now } });
    try {
      expect(await use('tuple-1', t0)).toBe(true);
      expect(await use('tuple-2', t0 + NONCE_RETENTION_SECONDS * 1000 - 1)).toBe(false);
      expect(await use('tuple-2', t0 + NONCE_RETENTION_SECONDS * 1000)).toBe(true);
      expect(await use('tuple-1', t0 + NONCE_RETENTION_SECONDS * 1000)).toBe(false);
    } finally {
      await nonces.close();
    }
  });

  it('deletes expired bindings in bounded batches as binds go on, down to the live ones', async () => {
    const nonces = SqliteNonceStore.open({ file, sweep: { every: 10, batch: 25 } });
    const bind = (n: number, now: number) =>
      nonces.use('p', `nonce-${n}`, { type: 'UseNonce', data: { tupleHash: 'tuple', now } });
    try {
      for (let n = 0; n < 100; n++) await bind(n, t0);
      const later = t0 + NONCE_RETENTION_SECONDS * 1000;
      for (let n = 100; n < 110; n++) await bind(n, later);
      expect(rowsIn('nonces')).toBe(110 - 25);
      for (let n = 110; n < 140; n++) await bind(n, later);
      expect(rowsIn('nonces')).toBe(40);
    } finally {
      await nonces.close();
    }
  });

  it('deletes expired keys in bounded batches as writes go on, down to the live ones', async () => {
    const retentionSeconds = 24 * 3600;
    const keys = SqliteIdempotencyStore.open({ file, retentionSeconds, sweep: { every: 10, batch: 25 } });
    const begin = (n: number, now: number) => {
      const fingerprint = { method: 'POST', path: '/api/external/intents/quote', bodySha256: 'aa' };
      const command: BeginRequest = {
        type: 'BeginRequest',
        data: { fingerprint, requestId: `run-${n}`, now, leaseMs: 60_000 },
      };
      return keys.begin('p', `key-${n}`, command);
    };
    try {
      for (let n = 0; n < 100; n++) await begin(n, t0);
      const later = t0 + retentionSeconds * 1000;
      for (let n = 100; n < 110; n++) await begin(n, later);
      expect(rowsIn('idempotency_keys')).toBe(110 - 25);
      for (let n = 110; n < 140; n++) await begin(n, later);
      expect(rowsIn('idempotency_keys')).toBe(40);
    } finally {
      await keys.close();
    }
  });
});
