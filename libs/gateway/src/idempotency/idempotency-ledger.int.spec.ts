import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { EventStoreIdempotencyStore } from '../records/event-store/event-store-idempotency-store.adapter';
import { type BeginOutcome, IdempotencyLedger } from './idempotency-ledger';

const RETENTION_SECONDS = 24 * 3600;
const LEASE_MS = 60_000;
const fp = { method: 'POST', path: '/api/external/intents/quote', bodySha256: 'aa' };
const is1 = { kind: 'intent_session', id: 'is_1' } as const;
const is2 = { kind: 'intent_session', id: 'is_2' } as const;

describe('IdempotencyLedger over SQLite (one file, a connection per process, controlled clock)', () => {
  let dir: string;
  let time: ManualClock;
  let stores: SqliteEventStore[];
  let ledgers: IdempotencyLedger[];
  let ledger: IdempotencyLedger;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'idempotency-ledger-'));
    time = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
    const file = join(dir, 'events.sqlite');
    stores = Array.from({ length: 3 }, () =>
      SqliteEventStore.open({ file, clock: () => new Date(time.now()) }),
    );
    ledgers = stores.map((store) => {
      const records = new EventStoreIdempotencyStore(store, { retentionSeconds: RETENTION_SECONDS });
      return new IdempotencyLedger(records, { leaseMs: LEASE_MS });
    });
    [ledger] = ledgers;
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (outcome: BeginOutcome) => {
    if (outcome.kind !== 'run') throw new Error(`expected a run, got ${outcome.kind}`);
    return outcome.ticket;
  };
  const typesOf = async (key: string) =>
    (await stores[0].readStream(IdempotencyLedger.streamId('p', key))).map((event) => event.type);

  it('runs a new key once, then replays it, refuses other bytes, and says "in progress" meanwhile', async () => {
    const ticket = run(await ledger.begin('p', 'k1', fp, time.now()));
    expect(await ledger.begin('p', 'k1', fp, time.now() + 1_000)).toEqual({
      kind: 'in_progress',
      retryAfterSeconds: 5,
    });
    await ledger.complete(ticket, is1, 200, time.now() + 2_000);
    expect(await ledger.begin('p', 'k1', fp, time.now() + 3_000)).toEqual({ kind: 'replay', resource: is1 });
    expect(await ledger.begin('p', 'k1', { ...fp, bodySha256: 'bb' }, time.now())).toEqual({
      kind: 'reused',
    });
    expect(await typesOf('k1')).toEqual(['RequestAccepted', 'RequestCompleted']);
  });

  it('gives one run to concurrent begins with one key, from every connection', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 9 }, (_, i) => ledgers[i % 3].begin('p', 'k2', fp, time.now())),
    );
    expect(outcomes.filter((o) => o.kind === 'run')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind !== 'run')).toEqual(
      Array.from({ length: 8 }, () => ({ kind: 'in_progress', retryAfterSeconds: 5 })),
    );
    expect(await typesOf('k2')).toEqual(['RequestAccepted']);
  });

  it('records nothing for a run whose key another run took over after its lease ran out', async () => {
    const first = run(await ledger.begin('p', 'k3', fp, time.now()));
    time.advance(LEASE_MS);
    const second = run(await ledgers[1].begin('p', 'k3', fp, time.now()));
    await ledger.complete(first, is1, 200, time.now());
    await ledger.release(first, 502, 'dependency_unavailable', time.now());
    expect(await typesOf('k3')).toEqual(['RequestAccepted', 'RequestAccepted']);
    await ledgers[1].complete(second, is2, 200, time.now());
    expect(await ledger.begin('p', 'k3', fp, time.now())).toEqual({ kind: 'replay', resource: is2 });
  });

  it('lets a released key run again, with the same bytes only', async () => {
    const first = run(await ledger.begin('p', 'k4', fp, time.now()));
    await ledger.release(first, 501, 'not_implemented', time.now());
    expect(await ledger.begin('p', 'k4', { ...fp, path: '/other' }, time.now())).toEqual({ kind: 'reused' });
    const second = run(await ledger.begin('p', 'k4', fp, time.now()));
    expect(second.requestId).not.toBe(first.requestId);
  });

  it('runs a key again once its record expired (the stream keeps its revision)', async () => {
    const first = run(await ledger.begin('p', 'k5', fp, time.now()));
    await ledger.complete(first, is1, 200, time.now());
    time.advance(RETENTION_SECONDS * 1000 + 1_000);
    expect(await typesOf('k5')).toEqual([]);
    const again = run(await ledger.begin('p', 'k5', { ...fp, bodySha256: 'other bytes' }, time.now()));
    await ledger.complete(again, is2, 200, time.now());
    const events = await stores[0].readStream(IdempotencyLedger.streamId('p', 'k5'));
    expect(events.map((event) => [event.revision, event.type])).toEqual([
      [2, 'RequestAccepted'],
      [3, 'RequestCompleted'],
    ]);
  });
});
