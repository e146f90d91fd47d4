import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../sqlite/sqlite-event-store.adapter';
import { ProjectionRunner } from './projection-runner';
import { openReadModelDatabase } from './read-model-database';
import {
  listReadModelSnapshots,
  ReadModelSnapshotter,
  restoreReadModelSnapshot,
} from './read-model-snapshots';
import { add, sums, totals } from './testing/sums.fixture';

const quiet = { info: () => undefined, warn: () => undefined };

describe('read-model snapshots', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'snapshots-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A replica's read models: its own file, and the runner of the `sums` projection on it. */
  const replica = (name: string) => {
    const db = openReadModelDatabase(join(dir, name, 'read-models.sqlite'));
    return { db, runner: new ProjectionRunner(store, db, sums(), { refreshMs: 1000 }) };
  };

  it('given a replica caught up and its snapshot, when a new replica restores it, then it serves the same read model and reads only the events recorded since', async () => {
    for (let i = 0; i < 300; i++) await add(store, `counter-${i % 7}`, i);
    const first = replica('a');
    await first.runner.fresh();
    const snapshots = join(dir, 'shared');
    const written = await new ReadModelSnapshotter(first.db, {
      dir: snapshots,
      everyMs: 60_000,
      instanceId: 'a',
      logger: quiet,
    }).snapshot();
    await add(store, 'counter-1', 1000, 2000);
    await add(store, 'counter-new', 5);

    const restored = restoreReadModelSnapshot(join(dir, 'b', 'read-models.sqlite'), snapshots);
    const second = replica('b');
    await second.runner.fresh();
    await first.runner.fresh();

    expect(restored).toEqual(written);
    expect(second.runner.stats.applied).toBe(3);
    expect(totals(second.db)).toEqual(totals(first.db));
    expect(totals(second.db)['counter-new']).toBe(5);
  });

  it('given a replica that has its own read-model file, when it starts with snapshots beside it, then its file is kept', async () => {
    await add(store, 'counter-a', 1);
    const own = replica('b');
    await own.runner.fresh();
    own.db.close();
    const other = replica('a');
    await add(store, 'counter-a', 2);
    await other.runner.fresh();
    await new ReadModelSnapshotter(other.db, {
      dir: join(dir, 'shared'),
      everyMs: 1,
      instanceId: 'a',
      logger: quiet,
    }).snapshot();

    expect(restoreReadModelSnapshot(join(dir, 'b', 'read-models.sqlite'), join(dir, 'shared'))).toBeNull();
    expect(totals(openReadModelDatabase(join(dir, 'b', 'read-models.sqlite')))).toEqual({ 'counter-a': 1 });
  });

  it('given no snapshot (or only one half-written), when a replica starts, then it projects from the start', async () => {
    const shared = join(dir, 'shared');
    expect(restoreReadModelSnapshot(join(dir, 'b', 'read-models.sqlite'), shared)).toBeNull();
    await add(store, 'counter-a', 1);
    const writer = replica('a');
    await writer.runner.fresh();
    await new ReadModelSnapshotter(writer.db, {
      dir: shared,
      everyMs: 1,
      instanceId: 'a',
      logger: quiet,
    }).snapshot();
    rmSync(listReadModelSnapshots(shared)[0].file);
    writeFileSync(join(shared, '.tmp-read-models-20260101T000000.000-x.sqlite'), 'half');

    expect(restoreReadModelSnapshot(join(dir, 'b', 'read-models.sqlite'), shared)).toBeNull();
    expect(existsSync(join(dir, 'b', 'read-models.sqlite'))).toBe(false);
  });

  it('given snapshots by several replicas, when one is due, then one replica writes it and the two newest are kept', async () => {
    await add(store, 'counter-a', 1);
    const shared = join(dir, 'shared');
    let now = Date.parse('2026-11-28T10:00:00Z');
    const a = replica('a');
    const b = replica('b');
    await a.runner.fresh();
    await b.runner.fresh();
    const snapshotter = (db: typeof a.db, instanceId: string) =>
      new ReadModelSnapshotter(db, {
        dir: shared,
        everyMs: 15 * 60_000,
        instanceId,
        logger: quiet,
        now: () => now,
      });

    const first = await snapshotter(a.db, 'a').snapshotIfDue();
    now += 60_000;
    const notDue = await snapshotter(b.db, 'b').snapshotIfDue();
    now += 15 * 60_000;
    const second = await snapshotter(b.db, 'b').snapshotIfDue();
    now += 15 * 60_000;
    const third = await snapshotter(a.db, 'a').snapshotIfDue();

    expect(first).not.toBeNull();
    expect(notDue).toBeNull();
    expect(listReadModelSnapshots(shared)).toEqual([third, second]);
    expect(readdirSync(shared).sort()).toEqual(
      [third, second].map((s) => s!.file.slice(shared.length + 1)).sort(),
    );
  });

  it('given a replica that keeps projecting, when it writes a snapshot, then its event loop goes on and the snapshot holds each table with its own checkpoint', async () => {
    for (let i = 0; i < 40; i++) {
      await store.append(
        `counter-${i}`,
        Array.from({ length: 500 }, (_, n) => ({ id: `${i}-${n}`, type: 'Added', data: { n: 1 } })),
        { expectedRevision: 'any' },
      );
    }
    const writer = replica('a');
    await writer.runner.fresh();
    // The event loop's turns while a snapshot is written and the replica projects. A snapshot written on the thread
    // itself would allow one or two; written by a worker, hundreds. On a loaded machine a process can get no CPU for
    // the whole snapshot (a full run saw 1 turn), so it is measured up to three times: a blocking snapshot never
    // passes any of them.
    const measure = async (late: number) => {
      await add(store, `counter-late-${late}`, 1, 1, 1);
      let turns = 0;
      let writing = true;
      const turn = () => {
        turns++;
        if (writing) setImmediate(turn);
      };
      setImmediate(turn);
      const pending = new ReadModelSnapshotter(writer.db, {
        dir: join(dir, 'shared'),
        everyMs: 1,
        instanceId: 'a',
        logger: quiet,
      }).snapshot();
      await writer.runner.fresh();
      const snapshot = await pending;
      writing = false;
      return { turns, snapshot };
    };
    let { turns, snapshot } = await measure(0);
    for (let again = 1; turns <= 10 && again < 3; again++) ({ turns, snapshot } = await measure(again));
    const copy = openReadModelDatabase(snapshot.file);
    const seen = copy.prepare<[], { seen: number }>('SELECT SUM(seen) AS seen FROM sums_v1').get()!.seen;
    const checkpoint = copy
      .prepare<[], { events: number }>(`SELECT events FROM projection_checkpoints WHERE projection = 'sums'`)
      .get()!;

    expect(turns).toBeGreaterThan(10);
    expect(seen).toBe(checkpoint.events);
    copy.close();
  });

  it('given an in-memory read-model database, then it refuses to snapshot it', () => {
    expect(
      () =>
        new ReadModelSnapshotter(openReadModelDatabase(':memory:'), {
          dir,
          everyMs: 1,
          instanceId: 'a',
          logger: quiet,
        }),
    ).toThrow(/read-model file/);
  });
});
