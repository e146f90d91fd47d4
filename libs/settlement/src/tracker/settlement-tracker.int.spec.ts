import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { type AttemptPreparedData } from '@svc/domain';
import { type EventStore, reportStoredEventProblemsTo, SqliteEventStore } from '@svc/event-store';
import { readWorkerCheckpoint, type WorkSharing } from '@svc/leases';
import { ManualClock, observedReads } from '@svc/testing';
import { DEFAULT_SETTLEMENT_OPTIONS } from '../settlement.options';
import { Logger } from '@nestjs/common';
import { SettlementTracker, TRACKER_LEASE_GROUP } from './settlement-tracker';

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
    const checkpoint = await readWorkerCheckpoint(sqlite, TRACKER_LEASE_GROUP);
    expect((checkpoint?.state as { open: string[] }).open.sort()).toEqual(['a1', 'a2', 'a3']);
    expect(checkpoint?.position).not.toBeNull();

    await prepare('a4'); // while no tracker runs
    clock.set(T0 + 60_001); // every attempt's evidence deadline has passed
    const { store, reads } = observedReads(sqlite);
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

describe('SettlementTracker: attempt streams holding a type it does not know and a malformed AttemptPrepared', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  const clock = new ManualClock(T0);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-unread-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock: () => new Date(clock.now()) });
    reportStoredEventProblemsTo(() => undefined); // the attempt fold tells of the unknown type too: not here
  });
  afterAll(async () => {
    reportStoredEventProblemsTo(null);
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('skips and counts the unknown type, quarantines the malformed attempt with its position, and ends the others', async () => {
    const event = (type: string, data: object) => ({ id: crypto.randomUUID(), type, data: { ...data } });
    await sqlite.append('attempt-ok', [event('AttemptPrepared', prepared('ok'))], {
      expectedRevision: 'no_stream',
    });
    await sqlite.append(
      'attempt-newer',
      [event('AttemptPrepared', prepared('newer')), event('AttemptRepriced', { at: T0 + 1 })], // a newer build's type
      { expectedRevision: 'no_stream' },
    );
    const { legs: _legs, ...withoutLegs } = prepared('broken');
    await sqlite.append('attempt-broken', [event('AttemptPrepared', withoutLegs)], {
      expectedRevision: 'no_stream',
    });
    const broken = (await sqlite.readStream('attempt-broken'))[0];
    clock.set(T0 + 60_001); // past every attempt's evidence deadline

    const tracker = new SettlementTracker(
      sqlite,
      new ChainRegistry([]),
      {},
      clock,
      { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 0 },
      sharing,
    );
    await tracker.onApplicationBootstrap();
    await tracker.tick();
    await tracker.tick();
    await tracker.onApplicationShutdown();

    for (const id of ['ok', 'newer'])
      expect([id, (await sqlite.readStream(`attempt-${id}`)).at(-1)?.type]).toEqual([id, 'AttemptExpired']);
    expect(await sqlite.readStream('attempt-broken')).toHaveLength(1); // never opened, nothing appended
    expect(tracker.stats).toMatchObject({
      skipped: { AttemptRepriced: 1 },
      quarantined: 1,
      recentlyQuarantined: [
        {
          position: broken.position,
          streamId: 'attempt-broken',
          revision: 0,
          type: 'AttemptPrepared',
          reason: expect.stringMatching(/^malformed AttemptPrepared/) as unknown,
        },
      ],
    });
    const checkpoint = await readWorkerCheckpoint(sqlite, TRACKER_LEASE_GROUP);
    expect((checkpoint?.state as { open: string[] }).open).toEqual([]);
  });
});

describe('SettlementTracker: a destination chain whose node hangs', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  const clock = new ManualClock(T0);
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  // A node that takes requests and never answers (a stalled RPC provider).
  const node = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => requests.push(chunk.toString()));
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-hang-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock: () => new Date(clock.now()) });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => node.close(resolve));
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const lastType = async (attemptId: string) =>
    (await sqlite.readStream(`attempt-${attemptId}`)).at(-1)?.type;

  it('delays no other attempt: the delivery scan runs beside the passes, never inside one', async () => {
    const port = (node.address() as { port: number }).port;
    const chains = new ChainRegistry(
      [{ chainId: 777, name: 'Stalled', rpcUrl: `http://127.0.0.1:${port}`, nativeSymbol: 'ETH' }],
      { timeoutMs: 20_000, retryCount: 0 },
    );
    // Submitted, with one open leg into chain 777: the tracker watches 777 for its delivery.
    const watchedLeg = {
      ...prepared('watched'),
      evidenceDeadlineAt: T0 + 3_600_000,
      legs: [
        {
          legIndex: 0,
          targetId: 'usdc-777',
          provider: 'relay',
          target: {
            chainId: 777,
            address: '0x00000000000000000000000000000000000000cc',
            symbol: 'USDC',
            decimals: 6,
          },
          slices: [
            {
              sliceId: 's-1',
              sourceIndex: 0,
              sourceChainId: 1,
              noop: false,
              provider: 'relay',
              providerRequestId: null,
              trackingContext: null,
              expectedOutputRaw: '1000000',
              minimumOutputRaw: '990000',
            },
          ],
        },
      ],
    } as AttemptPreparedData;
    await sqlite.append(
      'attempt-watched',
      [
        { id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...watchedLeg } },
        { id: crypto.randomUUID(), type: 'AttemptWalletSubmitted', data: { at: T0 + 1 } },
      ],
      { expectedRevision: 'no_stream' },
    );
    const tracker = new SettlementTracker(
      sqlite,
      chains,
      {},
      clock,
      { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 25 },
      sharing,
    );
    await tracker.onApplicationBootstrap();
    try {
      // The scan of chain 777 has started, and hangs.
      await until(
        'the delivery scan asks the stalled node',
        () => requests.some((r) => /eth_blockNumber/.test(r)),
        5_000,
      );
      // An attempt that has nothing to do with chain 777 still reaches its end at once.
      await sqlite.append(
        'attempt-late',
        [{ id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...prepared('late') } }],
        { expectedRevision: 'no_stream' },
      );
      clock.set(T0 + 60_001); // past its evidence deadline
      await until(
        'the other attempt expires',
        async () => (await lastType('late')) === 'AttemptExpired',
        3_000,
      );
    } finally {
      for (const socket of sockets) socket.destroy(); // the scan fails now; the shutdown waits for it
      await tracker.onApplicationShutdown();
    }
  }, 30_000);
});
