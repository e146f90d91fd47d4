import { type EventStore, MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leaseStreamId, membersStreamId } from './lease-streams';
import { type ShardLeases } from './shard-leases';
import {
  ALL,
  expectDisjoint,
  expectExclusiveHistory,
  expectSplit,
  GROUP,
  instance,
  INTERVAL,
  list,
  MARGIN,
  TTL,
} from './testing/shard-leases.fixture';

interface Stores {
  /** The stores of instances a, b and c: one shared store, or one connection each to the same file. */
  a: EventStore;
  b: EventStore;
  c: EventStore;
  close(): Promise<void>;
}

function onSqliteFile(connections: 1 | 3): Stores {
  const dir = mkdtempSync(join(tmpdir(), 'shard-leases-'));
  const file = join(dir, 'events.sqlite');
  const opened = Array.from({ length: connections }, () => SqliteEventStore.open({ file }));
  const [a, b = a, c = a] = opened;
  return {
    a,
    b,
    c,
    close: async () => {
      await Promise.all(opened.map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const setups: [string, () => Stores][] = [
  [
    'one memory store',
    () => {
      const store = new MemoryEventStore();
      return { a: store, b: store, c: store, close: () => store.close() };
    },
  ],
  ['one SQLite store', () => onSqliteFile(1)],
  ['three SQLite stores on one file (as three processes)', () => onSqliteFile(3)],
];

describe.each(setups)('ShardLeases on %s', (_name, open) => {
  let stores: Stores;
  let clock: ManualClock;
  let a: ShardLeases;
  let b: ShardLeases;

  beforeEach(() => {
    stores = open();
    clock = new ManualClock(1_700_000_000_000);
    a = instance(stores.a, clock, 'a');
    b = instance(stores.b, clock, 'b');
  });

  afterEach(() => stores.close());

  /** Rounds in turn, the clock moving one interval before each. */
  async function rounds(...instances: ShardLeases[]): Promise<void> {
    for (const leases of instances) {
      clock.advance(INTERVAL);
      await leases.refresh();
    }
  }

  it('gives every shard to a lone instance, and keeps them with it round after round', async () => {
    expect(list(await a.refresh())).toEqual(ALL);
    await rounds(a, a);
    expect(list(a.owned())).toEqual(ALL);
    const events = await stores.a.readStream(leaseStreamId(GROUP, 5));
    expect(events.map((event) => event.type)).toEqual(['LeaseAcquired', 'LeaseRenewed', 'LeaseRenewed']);
  });

  it('splits the shards evenly with an instance that joins, after a couple of rounds of both', async () => {
    await a.refresh();
    await rounds(b);
    expect(list(b.owned())).toEqual([]);
    await rounds(a, b);
    expect(list(a.owned())).toEqual([0, 1, 2, 3]);
    expect(list(b.owned())).toEqual([4, 5, 6, 7]);
    expectSplit([a, b]);

    const c = instance(stores.c, clock, 'c');
    await rounds(c, a, b, c);
    expect([a, b, c].map((leases) => leases.owned().size)).toEqual([3, 3, 2]);
    expectSplit([a, b, c]);
    await rounds(a, b, c, a, b, c);
    expectSplit([a, b, c]);
  });

  it('moves a dead instance’s shards to the others only once its leases have expired', async () => {
    await a.refresh();
    await rounds(b, a, b);
    const lastRenewalOfA = clock.now();
    await a.refresh(); // a's last round: it dies

    clock.set(lastRenewalOfA + TTL - 1);
    expect(list(await b.refresh())).toEqual([4, 5, 6, 7]);
    expect(list(a.owned())).toEqual([]); // the dead one had already stopped working, at the margin

    clock.set(lastRenewalOfA + TTL);
    expect(list(await b.refresh())).toEqual(ALL);
    for (const shard of ALL) await expectExclusiveHistory(stores.a, shard);
  });

  it('keeps a dead instance’s shards from a newcomer with room for them until its leases expire', async () => {
    await a.refresh();
    const lastRenewalOfA = clock.now(); // a dies

    clock.advance(1);
    expect(list(await b.refresh())).toEqual([]);
    clock.set(lastRenewalOfA + TTL - 1);
    expect(list(await b.refresh())).toEqual([]);
    clock.set(lastRenewalOfA + TTL);
    expect(list(await b.refresh())).toEqual(ALL);
  });

  it('hands the shards over at the next round of the others after a graceful stop', async () => {
    const seenByA: number[][] = [];
    a = instance(stores.a, clock, 'a', { onChange: (owned) => seenByA.push(list(owned)) });
    await a.refresh();
    await rounds(b, a, b);

    await a.stop();
    expect(list(a.owned())).toEqual([]);
    expect(a.owns(0)).toBe(false);
    expect(seenByA).toEqual([ALL, [0, 1, 2, 3], []]);
    const members = await stores.a.readStream(membersStreamId(GROUP), {
      direction: 'backwards',
      maxCount: 1,
    });
    expect(members.map((event) => event.type)).toEqual(['MemberLeft']);

    expect(list(await b.refresh())).toEqual(ALL); // no time passed
    expect(list(await a.refresh())).toEqual([]); // a stopped instance stays out
    expectSplit([a, b]);
  });

  it('never gives a shard to two instances that refresh at the same moment', async () => {
    const c = instance(stores.c, clock, 'c');
    for (let round = 0; round < 8; round++) {
      clock.advance(INTERVAL);
      const owned = await Promise.all([a.refresh(), b.refresh(), c.refresh()]);
      const claims = owned.flatMap(list).sort((x, y) => x - y);
      expect(claims).toEqual([...new Set(claims)]);
      expectDisjoint([a, b, c]);
    }
    expectSplit([a, b, c]);
    expect([a, b, c].map((leases) => leases.owned().size).sort()).toEqual([2, 3, 3]);
    for (const shard of ALL) await expectExclusiveHistory(stores.a, shard);
  });

  it('stops owning a shard once its lease is within the safety margin of ending, without a refresh', async () => {
    await a.refresh();
    const renewedAt = clock.now();
    clock.set(renewedAt + TTL - MARGIN - 1);
    expect(a.owns(3)).toBe(true);
    expect(a.ownsKey('at_1')).toBe(true);
    clock.set(renewedAt + TTL - MARGIN);
    expect(a.owns(3)).toBe(false);
    expect(a.ownsKey('at_1')).toBe(false);
    expect(list(a.owned())).toEqual([]);
  });

  it('drops, without an error, the shards taken over while its renewals stalled', async () => {
    await a.refresh();
    clock.advance(TTL);
    expect(list(await b.refresh())).toEqual(ALL);
    clock.advance(1);
    expect(list(await a.refresh())).toEqual([]);
    await rounds(b, a, b);
    expectSplit([a, b]);
  });
});
