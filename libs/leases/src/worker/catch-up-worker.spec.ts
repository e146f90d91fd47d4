import {
  type EventStore,
  isRecord,
  MemoryEventStore,
  type Projected,
  projectedEvents,
  type StreamEvent,
} from '@svc/event-store';
import { ManualClock, observedReads } from '@svc/testing';
import { CatchUpWorker } from './catch-up-worker';
import { readWorkerCheckpoint, writeWorkerCheckpoint } from './worker-checkpoint';
import { type WorkerLogger } from './worker-logger';

type ItemAdded = { type: 'ItemAdded'; data: { n: number } };

/** `ItemAdded` events of the `item-` streams, with an integer `n`. */
const itemReads = projectedEvents<ItemAdded>({
  name: 'items',
  streamPrefixes: ['item-'],
  eventTypes: ['ItemAdded'],
  isEvent: (e: StreamEvent): e is ItemAdded => isRecord(e.data) && Number.isInteger(e.data['n']),
});

/** A worker that keeps the ids of the `item-` streams it saw, and fails its work while told to. */
class ItemWorker extends CatchUpWorker<ItemAdded> {
  readonly seen = new Set<string>();
  failing = false;
  worked = 0;

  constructor(store: EventStore, clock: ManualClock, logger: WorkerLogger) {
    super({
      store,
      clock,
      sharing: { instanceId: 'worker-a', shardCount: 2, leaseTtlMs: 15_000 },
      group: 'items',
      logger,
      ownershipMessage: 'working shards',
      reads: itemReads,
      tickMs: 0,
      checkpointEveryMs: 60_000,
    });
  }

  owned(key: string): boolean {
    return this.leases.ownsKey(key);
  }

  protected observe(event: Projected<ItemAdded>): void {
    this.seen.add(event.streamId);
  }
  protected work(): Promise<void> {
    this.worked++;
    return this.failing ? Promise.reject(new Error('node down')) : Promise.resolve();
  }
  protected snapshot(): unknown {
    return { seen: [...this.seen] };
  }
  protected restore(state: unknown): boolean {
    const seen = (state as { seen?: unknown } | null)?.seen;
    if (!Array.isArray(seen)) return false;
    for (const id of seen as string[]) this.seen.add(id);
    return true;
  }
}

const logger = () => {
  const lines: object[] = [];
  return {
    lines,
    log: (m: object) => lines.push(m),
    warn: (m: object) => lines.push(m),
    error: (m: object) => lines.push(m),
  };
};
const item = (store: EventStore, n: number) =>
  store.append(`item-${n}`, [{ id: crypto.randomUUID(), type: 'ItemAdded', data: { n } }], {
    expectedRevision: 'no_stream',
  });
const stored = (store: EventStore, streamId: string, type: string, data: Record<string, unknown>) =>
  store.append(streamId, [{ id: crypto.randomUUID(), type, data }], { expectedRevision: 'any' });

describe('CatchUpWorker', () => {
  const clock = new ManualClock(1_000_000);

  it('holds its shards while running, and resumes after a restart from its checkpoint with its state', async () => {
    const store = new MemoryEventStore();
    for (const n of [1, 2]) await item(store, n);
    const first = new ItemWorker(store, clock, logger());
    await first.onApplicationBootstrap();
    expect(['a', 'b', 'c'].every((key) => first.owned(key))).toBe(true); // alone: every shard
    await first.tick();
    await first.onApplicationShutdown(); // saves the checkpoint
    expect(first.owned('a')).toBe(false);
    const saved = await readWorkerCheckpoint(store, 'items');
    expect(saved?.state).toEqual({ seen: ['item-1', 'item-2'] });

    await item(store, 3);
    const { store: watched, reads } = observedReads(store);
    const second = new ItemWorker(watched, clock, logger());
    await second.onApplicationBootstrap();
    await second.tick();
    await second.onApplicationShutdown();
    expect(reads[0]).toBe(saved?.position); // nothing before the checkpoint read again
    expect([...second.seen].sort()).toEqual(['item-1', 'item-2', 'item-3']);
  });

  it('reads the whole log again when the saved state does not fit', async () => {
    const store = new MemoryEventStore();
    await item(store, 1);
    await writeWorkerCheckpoint(
      store,
      'items',
      { position: null, state: { other: 'shape' } },
      crypto.randomUUID(),
    );
    const { store: watched, reads } = observedReads(store);
    const worker = new ItemWorker(watched, clock, logger());
    await worker.onApplicationBootstrap();
    await worker.tick();
    await worker.onApplicationShutdown();
    expect(reads[0]).toBeUndefined();
    expect([...worker.seen]).toEqual(['item-1']);
  });

  it('logs a failed pass and goes on with the next one', async () => {
    const store = new MemoryEventStore();
    const log = logger();
    const worker = new ItemWorker(store, clock, log);
    await worker.onApplicationBootstrap();
    worker.failing = true;
    await worker.tick();
    expect(log.lines).toContainEqual({ msg: 'items pass failed', error: 'node down' });
    worker.failing = false;
    await item(store, 7);
    await worker.tick();
    await worker.onApplicationShutdown();
    expect([worker.worked, worker.seen.has('item-7')]).toEqual([2, true]);
  });

  it('given an event type it does not read and a malformed event, then it skips and counts the one, quarantines the other with its position, and goes on with the rest', async () => {
    const store = new MemoryEventStore();
    await item(store, 1);
    await stored(store, 'item-1', 'ItemRenamed', { name: 'one' }); // a newer build's type
    await stored(store, 'item-1', 'ItemRenamed', { name: 'uno' });
    await stored(store, 'item-2', 'ItemAdded', { n: 'two' }); // malformed: n is not an integer
    await item(store, 3);
    const malformed = (await store.readStream('item-2'))[0];
    const log = logger();
    const worker = new ItemWorker(store, clock, log);
    await worker.onApplicationBootstrap();

    await worker.tick();
    await item(store, 4);
    await worker.tick();
    await worker.onApplicationShutdown();

    expect([...worker.seen].sort()).toEqual(['item-1', 'item-3', 'item-4']);
    expect(worker.worked).toBe(2);
    expect(worker.stats).toEqual({
      observed: 3,
      skipped: { ItemRenamed: 2 },
      quarantined: 1,
      recentlyQuarantined: [
        {
          position: malformed.position,
          streamId: 'item-2',
          revision: 0,
          eventId: malformed.id,
          type: 'ItemAdded',
          reason: expect.stringMatching(/^malformed ItemAdded/) as unknown,
        },
      ],
    });
    // The skipped type is told once, the quarantined event once, with where it is.
    expect(log.lines).toEqual(
      expect.arrayContaining([
        {
          msg: 'projection items skips events of a type it does not read',
          projection: 'items',
          type: 'ItemRenamed',
        },
        expect.objectContaining({
          msg: 'projection items quarantined an event',
          position: malformed.position,
          streamId: 'item-2',
          revision: 0,
        }),
      ]),
    );
    expect(log.lines.filter((l) => JSON.stringify(l).includes('ItemRenamed'))).toHaveLength(1);
  });
});
