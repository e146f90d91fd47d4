import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Decider } from '@svc/contract';
import { ManualClock } from '@svc/testing';
import { aggregateStream } from './aggregate-stream';
import { type EventStore } from './event-store.port';
import { handleCommand, TooManyConcurrentAppendsError } from './handle-command';
import { MemoryEventStore } from './memory/memory-event-store.adapter';
import { SqliteEventStore } from './sqlite/sqlite-event-store.adapter';
import { StreamHistoryExpiredError } from './stream-history-expired.error';

/** A counter stream: Add appends Added unless the total would pass the limit; Add of 0 decides nothing. */
type CounterEvent = { type: 'Added'; data: { by: number } };
type CounterCommand = { type: 'Add'; by: number; limit: number };
let decided = 0;
const counter: Decider<number, CounterCommand, CounterEvent> = {
  initialState: 0,
  evolve: (total, e) => total + e.data.by,
  decide: (command, total) => {
    decided++;
    if (total + command.by > command.limit) throw new RangeError(`over the limit ${command.limit}`);
    return command.by === 0 ? [] : [{ type: 'Added', data: { by: command.by } }];
  },
};
const add = (by: number, limit = 100): CounterCommand => ({ type: 'Add', by, limit });

describe.each([
  [
    'memory',
    (clock: () => Date): { store: EventStore; cleanup: () => void } => ({
      store: new MemoryEventStore({ clock }),
      cleanup: () => undefined,
    }),
  ],
  [
    'sqlite',
    (clock: () => Date): { store: EventStore; cleanup: () => void } => {
      const dir = mkdtempSync(join(tmpdir(), 'handle-command-'));
      return {
        store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock }),
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
] as const)('handleCommand and aggregateStream over %s', (_name, open) => {
  let store: EventStore;
  let cleanup: () => void;
  let time: ManualClock;
  beforeEach(() => {
    time = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
    ({ store, cleanup } = open(() => new Date(time.now())));
    decided = 0;
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('folds, decides and appends at the revision read; the state after is the fold of what was appended', async () => {
    expect(await aggregateStream(store, 'counter-1', counter)).toEqual({ state: 0, revision: 'no_stream' });
    const first = await handleCommand(store, 'counter-1', counter, add(3), { stepId: 'a' });
    const second = await handleCommand(store, 'counter-1', counter, add(4), { stepId: 'b' });
    expect([first.revision, second.state, second.revision]).toEqual([0, 7, 1]);
    expect(await aggregateStream(store, 'counter-1', counter)).toEqual({ state: 7, revision: 1 });
  });

  it('a command that decides nothing appends nothing', async () => {
    await handleCommand(store, 'counter-2', counter, add(2), { stepId: 'a' });
    const none = await handleCommand(store, 'counter-2', counter, add(0), { stepId: 'b' });
    expect([none.events, none.revision]).toEqual([[], 0]);
    expect(await store.readStream('counter-2')).toHaveLength(1);
  });

  it('a refusal passes through and appends nothing', async () => {
    await expect(handleCommand(store, 'counter-3', counter, add(101), { stepId: 'a' })).rejects.toThrow(
      RangeError,
    );
    expect(await store.readStream('counter-3')).toEqual([]);
  });

  it('on a concurrent append it reads, folds and decides again, so the rule holds against what is really stored', async () => {
    // Another writer appends between this command's read and its append, once.
    let interfered = false;
    const racing: EventStore = Object.create(store) as EventStore;
    racing.append = async (streamId, events, options) => {
      if (!interfered) {
        interfered = true;
        await store.append(streamId, [{ id: crypto.randomUUID(), type: 'Added', data: { by: 95 } }], {
          expectedRevision: 'any',
        });
      }
      return store.append(streamId, events, options);
    };
    // Decided once against 0 (fine), then again against 95: 95 + 10 passes the limit, so nothing over it is stored.
    await expect(handleCommand(racing, 'counter-4', counter, add(10), { stepId: 'a' })).rejects.toThrow(
      RangeError,
    );
    expect(decided).toBe(2);
    expect((await aggregateStream(store, 'counter-4', counter)).state).toBe(95);
  });

  it('gives up after maxRetries when the stream keeps changing under it', async () => {
    const busy: EventStore = Object.create(store) as EventStore;
    busy.append = async (streamId, events, options) => {
      await store.append(streamId, [{ id: crypto.randomUUID(), type: 'Added', data: { by: 1 } }], {
        expectedRevision: 'any',
      });
      return store.append(streamId, events, options);
    };
    await expect(
      handleCommand(busy, 'counter-5', counter, add(1), { stepId: 'a', maxRetries: 2 }),
    ).rejects.toBeInstanceOf(TooManyConcurrentAppendsError);
    expect(decided).toBe(3);
  });

  it('a step marked once is stored once even when a later run of it, at another revision, decides it again', async () => {
    await handleCommand(store, 'counter-7', counter, add(2), { stepId: 'try:1', once: true });
    // A stalled run of the same step that read the stream before that append: its batch repeats the same ids.
    const stale: EventStore = Object.create(store) as EventStore;
    stale.readStream = () => Promise.resolve([]);
    await handleCommand(stale, 'counter-7', counter, add(2), { stepId: 'try:1', once: true });
    expect((await aggregateStream(store, 'counter-7', counter)).state).toBe(2);
    // Without `once`, the same step name at a later revision is a new step: decided and appended again.
    decided = 0;
    await handleCommand(store, 'counter-7', counter, add(2), { stepId: 'try:1' });
    expect((await aggregateStream(store, 'counter-7', counter)).state).toBe(4);
  });

  it('an overlapping run of the same step at the same revision appends the same ids: stored once', async () => {
    // Another run of this very step (a stalled worker, a retried request) got its identical batch in first.
    const twin: EventStore = Object.create(store) as EventStore;
    twin.append = async (streamId, events, options) => {
      await store.append(streamId, events, options);
      return store.append(streamId, events, options);
    };
    const result = await handleCommand(twin, 'counter-6', counter, add(5), { stepId: 'same' });
    expect(result.events).toEqual([{ type: 'Added', data: { by: 5 } }]);
    expect(await store.readStream('counter-6')).toHaveLength(1);
  });

  describe('given the stream as the caller last saw it (known)', () => {
    /** The store, counting stream reads. */
    function counting(): { store: EventStore; reads: () => number } {
      let reads = 0;
      const counted: EventStore = Object.create(store) as EventStore;
      counted.readStream = (streamId, options) => {
        reads++;
        return store.readStream(streamId, options);
      };
      return { store: counted, reads: () => reads };
    }

    it('decides on it and appends at its revision without reading the stream', async () => {
      const first = await handleCommand(store, 'counter-k1', counter, add(3), { stepId: 'a' });
      const { store: counted, reads } = counting();
      const second = await handleCommand(counted, 'counter-k1', counter, add(4), { stepId: 'b' }, first);
      expect([reads(), second.state, second.revision]).toEqual([0, 7, 1]);
      expect(await aggregateStream(store, 'counter-k1', counter)).toEqual({ state: 7, revision: 1 });
    });

    it('a stale copy costs one read: the append at its revision fails, and the command decides on what is stored', async () => {
      const seen = await handleCommand(store, 'counter-k2', counter, add(3), { stepId: 'a' });
      await handleCommand(store, 'counter-k2', counter, add(90), { stepId: 'b' }); // another writer, since
      const { store: counted, reads } = counting();
      // On the copy (3) 10 fits the limit; on what is stored (93) it does not: refused, nothing appended.
      await expect(
        handleCommand(counted, 'counter-k2', counter, add(10), { stepId: 'c', maxRetries: 0 }, seen),
      ).rejects.toThrow(RangeError);
      expect([reads(), decided]).toEqual([1, 4]);
      expect(await aggregateStream(store, 'counter-k2', counter)).toEqual({ state: 93, revision: 1 });
    });

    it('a refusal decided on a stale copy is decided again on what is stored', async () => {
      await handleCommand(store, 'counter-k3', counter, add(50), { stepId: 'a' });
      const stale = { state: 99, revision: 0 }; // wrong on purpose: 99 + 5 would pass the limit
      const { store: counted, reads } = counting();
      const result = await handleCommand(counted, 'counter-k3', counter, add(5), { stepId: 'b' }, stale);
      expect([reads(), result.state, result.revision]).toEqual([1, 55, 1]);
    });

    it('many commands in flight on one copy: each lands once, on the real total, and none is lost', async () => {
      const seen = await handleCommand(store, 'counter-k4', counter, add(1), { stepId: 'a' });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          handleCommand(store, 'counter-k4', counter, add(1), { stepId: `n${i}`, maxRetries: 10 }, seen),
        ),
      );
      expect(results.map((r) => r.revision).sort((a, b) => Number(a) - Number(b))).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8,
      ]);
      expect(await aggregateStream(store, 'counter-k4', counter)).toEqual({ state: 9, revision: 8 });
    });
  });

  it('folds only the newest events when asked to read backwards, in stream order, at the newest revision', async () => {
    for (const by of [1, 2, 3])
      await handleCommand(store, 'counter-8', counter, add(by), { stepId: `+${by}` });
    const newest = { direction: 'backwards', maxCount: 2 } as const;
    expect(await aggregateStream(store, 'counter-8', counter, newest)).toEqual({ state: 5, revision: 2 });
    expect(await aggregateStream(store, 'counter-8', counter, { maxCount: 1 })).toEqual({
      state: 1,
      revision: 0,
    });
    // handleCommand decides on that same fold (5 + 95 is within the limit, 6 + 95 would not be) and appends after
    // the newest event.
    await expect(
      handleCommand(store, 'counter-8', counter, add(95), { stepId: 'd', read: newest }),
    ).resolves.toMatchObject({ state: 100, revision: 3 });
  });

  describe('a stream whose events all expired (its revision stays)', () => {
    const expiring = { maxAgeSeconds: 60 };
    beforeEach(async () => {
      await handleCommand(store, 'counter-9', counter, add(3), { stepId: 'a', ...expiring });
      await handleCommand(store, 'counter-9', counter, add(4), { stepId: 'b', ...expiring });
      time.advance(61_000);
      expect(await aggregateStream(store, 'counter-9', counter)).toEqual({ state: 0, revision: 'no_stream' });
      decided = 0;
    });

    it('is refused by default: what expired still counts, and nothing is appended', async () => {
      const refused = handleCommand(store, 'counter-9', counter, add(5), { stepId: 'c', ...expiring });
      await expect(refused).rejects.toBeInstanceOf(StreamHistoryExpiredError);
      await expect(refused).rejects.toMatchObject({ streamId: 'counter-9', revision: 1 });
      expect(await store.readStream('counter-9')).toEqual([]);
    });

    it('starts over when asked: decided on the empty stream, appended after the revision it kept', async () => {
      const result = await handleCommand(store, 'counter-9', counter, add(5), {
        stepId: 'c',
        expiredHistory: 'start_over',
        ...expiring,
      });
      expect([result.state, result.revision]).toEqual([5, 2]);
      expect(await aggregateStream(store, 'counter-9', counter)).toEqual({ state: 5, revision: 2 });
      // Once against the empty stream (the append conflicts), once more to append after the kept revision.
      expect(decided).toBe(2);
    });

    it('a command that decides nothing on it is not refused: there is nothing to append', async () => {
      const none = await handleCommand(store, 'counter-9', counter, add(0), { stepId: 'c' });
      expect([none.events, none.revision]).toEqual([[], 'no_stream']);
    });
  });
});
