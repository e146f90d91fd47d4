import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { type AttemptPreparedData } from '@svc/domain';
import { type EventStore, type ReadAllOptions, SqliteEventStore } from '@svc/event-store';
import { type WorkSharing } from '@svc/leases';
import { ManualClock } from '@svc/testing';
import { DEFAULT_SETTLEMENT_OPTIONS } from '../settlement.options';
import { Logger } from '@nestjs/common';
import { SettlementTracker } from './settlement-tracker';
import { readTrackerCheckpoint } from './tracker-checkpoint';

const T0 = Date.UTC(2026, 10, 24);
const sharing: WorkSharing = { instanceId: 'tracker-a', shardCount: 1, leaseTtlMs: 15_000 };

/** An attempt with nothing to track: only its deadlines, which the tracker enforces once it knows the attempt. */
const prepared = (attemptId: string): AttemptPreparedData => ({
  attemptId,
  intentSessionId: `is-${attemptId}`,
  partnerId: 'p',
  idempotencyKey: null,
  wallet: '0x00000000000000000000000000000000000000aa',
  recipient: '0x00000000000000000000000000000000000000bb',
  preparedAt: T0,
  expiresAt: T0 + 30_000,
  evidenceDeadlineAt: T0 + 60_000,
  chainActions: [],
  walletAuthorization: {
    domain: { name: 'x', version: '1' },
    types: {},
    primaryType: 'x',
    message: {},
  } as unknown as AttemptPreparedData['walletAuthorization'],
  legs: [],
  walletContext: null,
});

/** The real SQLite store, with every readAll's `after` noted (what a restarted tracker re-reads). */
function observed(store: EventStore): { store: EventStore; reads: (string | undefined)[] } {
  const reads: (string | undefined)[] = [];
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'readAll')
        return (options?: ReadAllOptions) => {
          reads.push(options?.after);
          return target.readAll(options);
        };
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, reads };
}

Logger.overrideLogger(false);

describe('SettlementTracker over SQLite: checkpointed catch-up', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  const clock = new ManualClock(T0);
  const chains = new ChainRegistry([]);
  const tracker = (store: EventStore) =>
    new SettlementTracker(store, chains, {}, clock, { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 0 }, sharing);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock: () => new Date(clock.now()) });
  });
  afterAll(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const prepare = (attemptId: string) =>
    sqlite.append(
      `attempt-${attemptId}`,
      [{ id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...prepared(attemptId) } }],
      { expectedRevision: 'no_stream' },
    );

  it('a restarted tracker resumes from its checkpoint, not from the start of the log, and loses no attempt', async () => {
    for (const id of ['a1', 'a2', 'a3']) await prepare(id);
    const first = tracker(sqlite);
    await first.onApplicationBootstrap();
    await first.tick();
    await first.onApplicationShutdown();
    const checkpoint = await readTrackerCheckpoint(sqlite);
    expect(checkpoint?.open.sort()).toEqual(['a1', 'a2', 'a3']);
    expect(checkpoint?.position).not.toBeNull();

    await prepare('a4'); // while no tracker runs
    clock.set(T0 + 60_001); // every attempt's evidence deadline has passed
    const { store, reads } = observed(sqlite);
    const second = tracker(store);
    await second.onApplicationBootstrap();
    await second.tick();
    await second.tick();
    await second.onApplicationShutdown();

    // Its first catch-up read started at the checkpoint: nothing before it was read again.
    expect(reads[0]).toBe(checkpoint?.position);
    // Attempts it knew only from the checkpoint, and the one prepared meanwhile, all reached their terminal state.
    for (const id of ['a1', 'a2', 'a3', 'a4']) {
      const events = await sqlite.readStream(`attempt-${id}`);
      expect([id, events.at(-1)?.type]).toEqual([id, 'AttemptExpired']);
    }
  });
});
