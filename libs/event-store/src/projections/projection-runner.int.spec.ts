import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StreamEvent } from '../aggregate-stream';
import { type EventStore, type ReadAllOptions } from '../event-store.port';
import { MemoryEventStore } from '../memory/memory-event-store.adapter';
import { SqliteEventStore } from '../sqlite/sqlite-event-store.adapter';
import { ProjectionRunner } from './projection-runner';
import { openReadModelDatabase } from './read-model-database';
import { add, sums, totals } from './testing/sums.fixture';

/** The store, with the `after` of every readAllPage noted. */
function counted(store: EventStore): { store: EventStore; reads: (string | undefined)[] } {
  const reads: (string | undefined)[] = [];
  const proxy = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'readAllPage') return typeof value === 'function' ? value.bind(target) : value;
      return (options?: ReadAllOptions) => {
        reads.push(options?.after);
        return target.readAllPage(options);
      };
    },
  });
  return { store: proxy, reads };
}

describe('ProjectionRunner', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'projection-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given events of its streams and others, when it catches up, then it applies its own in order, once, and checkpoints', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    await add(store, 'counter-a', 1, 2);
    await add(store, 'other-x', 100);
    await add(store, 'counter-b', 5);
    const runner = new ProjectionRunner(store, db, sums(), { refreshMs: 1000, pageSize: 2 });

    await runner.fresh();
    await runner.fresh();

    expect(totals(db)).toEqual({ 'counter-a': 3, 'counter-b': 5 });
    expect(runner.stats.applied).toBe(3);
    expect(runner.position).toBe((await store.readAll()).at(-1)!.position);
  });

  it('given a checkpoint, when a new runner starts on the same file, then it reads only what came after it', async () => {
    const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    const file = join(dir, 'read-models.sqlite');
    await add(store, 'counter-a', 1, 2, 3);
    const first = new ProjectionRunner(store, openReadModelDatabase(file), sums(), { refreshMs: 1000 });
    await first.fresh();
    const saved = first.position;
    await add(store, 'counter-a', 4);

    const { store: watched, reads } = counted(store);
    const db = openReadModelDatabase(file);
    const second = new ProjectionRunner(watched, db, sums(), { refreshMs: 1000 });
    await second.fresh();

    expect(reads).toEqual([saved]);
    expect(totals(db)).toEqual({ 'counter-a': 10 });
    await store.close();
  });

  it('given a tail of other streams only, when it catches up twice, then the second read starts past that tail', async () => {
    const store = new MemoryEventStore();
    await add(store, 'counter-a', 1);
    for (let i = 0; i < 20; i++) await add(store, `other-${i}`, i);
    const { store: watched, reads } = counted(store);
    const runner = new ProjectionRunner(watched, openReadModelDatabase(':memory:'), sums(), {
      refreshMs: 1000,
    });

    await runner.fresh();
    await runner.fresh();

    expect(reads[1]).toBe((await store.readAll()).at(-1)!.position);
  });

  it('given an event type it does not read, then it skips it, counts it, warns once per type, and goes on', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    await add(store, 'counter-a', 1);
    for (let i = 0; i < 3; i++)
      await store.append('counter-a', [{ id: randomUUID(), type: 'FutureThing', data: {} }], {
        expectedRevision: 'any',
      });
    await add(store, 'counter-a', 2);
    const warnings: string[] = [];
    const runner = new ProjectionRunner(store, db, sums(), {
      refreshMs: 1000,
      onWarning: (message, detail) => warnings.push(`${message} ${String(detail['type'])}`),
    });

    await runner.fresh();

    expect(totals(db)).toEqual({ 'counter-a': 3 });
    expect(runner.stats.skipped).toEqual({ FutureThing: 3 });
    expect(warnings).toEqual(['projection sums skips events of a type it does not read FutureThing']);
    expect(runner.quarantined()).toEqual([]);
  });

  it('given [ok, malformed, ok, failing, ok], then the bad ones are quarantined with their positions and the rest applied', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    await add(store, 'counter-a', 1, 'one', 2, 13, 4);
    const all = await store.readAll();
    const runner = new ProjectionRunner(store, db, sums(), { refreshMs: 1000 });

    await runner.fresh();

    expect(totals(db)).toEqual({ 'counter-a': 7 }); // 13's write undone with its savepoint
    expect(runner.quarantined()).toEqual([
      expect.objectContaining({
        position: all[1].position,
        revision: 1,
        type: 'Added',
        reason: expect.stringMatching(/^malformed Added/),
      }),
      expect.objectContaining({ position: all[3].position, revision: 3, reason: 'evolve failed: unlucky' }),
    ]);
    expect(runner.stats).toEqual({ applied: 3, skipped: {}, quarantined: 2 });
  });

  it('upcasts an old shape before the guard', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    await store.append('counter-a', [{ id: randomUUID(), type: 'Increased', data: { by: 7 } }], {
      expectedRevision: 'any',
    });
    const upcasting = {
      ...sums(),
      upcast: (e: StreamEvent) =>
        e.type === 'Increased' ? { type: 'Added', data: { n: (e.data as { by: number }).by } } : e,
    };
    await new ProjectionRunner(store, db, upcasting, { refreshMs: 1000 }).fresh();

    expect(totals(db)).toEqual({ 'counter-a': 7 });
  });

  it('given two processes on one store and one read-model file catching up at once, then every event is applied exactly once', async () => {
    const file = join(dir, 'events.sqlite');
    const writer = SqliteEventStore.open({ file });
    const readers = [SqliteEventStore.open({ file }), SqliteEventStore.open({ file })];
    const runners = readers.map(
      (store) =>
        new ProjectionRunner(store, openReadModelDatabase(join(dir, 'rm.sqlite')), sums(), {
          refreshMs: 1000,
          pageSize: 7,
        }),
    );
    let expected = 0;
    for (let round = 0; round < 10; round++) {
      const appends = Array.from({ length: 5 }, (_, i) => add(writer, `counter-${i}`, round + 1, 1));
      expected += 5 * (round + 2);
      await Promise.all([...appends, ...runners.map((r) => r.fresh())]);
    }
    await Promise.all(runners.map((r) => r.fresh()));

    const db = openReadModelDatabase(join(dir, 'rm.sqlite'));
    const total = Object.values(totals(db)).reduce((a, b) => a + b, 0);
    expect(total).toBe(expected);
    expect(runners[0].stats.applied + runners[1].stats.applied).toBe(100);
    for (const s of [writer, ...readers]) await s.close();
  });

  it('a new version starts from the beginning, in its own tables, beside the old', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    await add(store, 'counter-a', 1, 2);
    await new ProjectionRunner(store, db, sums(1), { refreshMs: 1000 }).fresh();
    await add(store, 'counter-a', 3);

    await new ProjectionRunner(store, db, sums(2), { refreshMs: 1000 }).fresh();

    expect(totals(db, 1)).toEqual({ 'counter-a': 3 });
    expect(totals(db, 2)).toEqual({ 'counter-a': 6 });
  });

  it('rebuild empties the read model and the next catch-up projects the whole log again', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    await add(store, 'counter-a', 1, 2);
    const runner = new ProjectionRunner(store, db, sums(), { refreshMs: 1000 });
    await runner.fresh();

    runner.rebuild();
    expect(totals(db)).toEqual({});
    await runner.fresh();

    expect(totals(db)).toEqual({ 'counter-a': 3 });
  });

  it('answers a fresh() that arrives during a catch-up only after a catch-up that started after it', async () => {
    const store = new MemoryEventStore();
    const db = openReadModelDatabase(':memory:');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = true;
    const slow = Object.create(store) as EventStore;
    slow.readAllPage = async (options) => {
      const page = await store.readAllPage(options);
      if (gated) {
        gated = false;
        await gate;
      }
      return page;
    };
    const runner = new ProjectionRunner(slow, db, sums(), { refreshMs: 1000 });
    const first = runner.fresh();
    await new Promise((r) => setTimeout(r, 10));
    await add(store, 'counter-late', 9);
    const second = runner.fresh();
    release();
    await first;
    expect(totals(db)).toEqual({});
    await second;
    expect(totals(db)).toEqual({ 'counter-late': 9 });
  });
});
