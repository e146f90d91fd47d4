import { EventStoreClosedError, MemoryEventStore } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { InvalidShardLeasesOptionsError } from './invalid-shard-leases-options.error';
import {
  LEASE_STREAM_MAX_COUNT,
  leaseStreamId,
  MEMBERS_STREAM_MAX_COUNT,
  membersStreamId,
} from './lease-streams';
import { ShardLeasesStoppedError } from './shard-leases-stopped.error';
import { ALL, GROUP, instance, INTERVAL, list, MARGIN, TTL } from './testing/shard-leases.fixture';

describe('ShardLeases', () => {
  let store: MemoryEventStore;
  let clock: ManualClock;
  const T0 = 1_700_000_000_000;

  beforeEach(() => {
    store = new MemoryEventStore();
    clock = new ManualClock(T0);
  });

  afterEach(() => store.close());

  const typesOf = async (streamId: string) => (await store.readStream(streamId)).map((event) => event.type);

  it('runs the rounds of one instance one after another, even when called together', async () => {
    const a = instance(store, clock, 'a');
    const [first, second] = await Promise.all([a.refresh(), a.refresh()]);
    expect([list(first), list(second)]).toEqual([ALL, ALL]);
    // Overlapping rounds would both have read an empty stream, and the second would have lost every append.
    expect(await typesOf(leaseStreamId(GROUP, 0))).toEqual(['LeaseAcquired', 'LeaseRenewed']);
  });

  it('joins (a round, then the timer) and leaves (hands every shard back), reporting a failed handover instead of throwing', async () => {
    const errors: unknown[] = [];
    const a = instance(store, clock, 'a', { onError: (e) => errors.push(e) });
    expect(a.running).toBe(false);
    await a.join();
    expect(a.running).toBe(true);
    expect(list(a.owned())).toEqual(ALL);
    await a.leave();
    expect(a.running).toBe(false);
    expect(list(a.owned())).toEqual([]);
    expect(list(await instance(store, clock, 'b').refresh())).toEqual(ALL); // at once, not after expiry
    const c = instance(store, clock, 'c', { onError: (e) => errors.push(e) });
    await c.join();
    await store.close();
    await expect(c.leave()).resolves.toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e instanceof EventStoreClosedError)).toBe(true);
  });

  it('takes back its own shards at once after a restart under the same owner id', async () => {
    await instance(store, clock, 'a').refresh();
    clock.advance(1_000);
    const restarted = instance(store, clock, 'a');
    expect(list(await restarted.refresh())).toEqual(ALL);
  });

  it('keeps its streams short however long it runs', async () => {
    const a = instance(store, clock, 'a', { shardCount: 1 });
    for (let round = 0; round < MEMBERS_STREAM_MAX_COUNT + 10; round++) {
      clock.advance(INTERVAL);
      await a.refresh();
    }
    expect(list(a.owned())).toEqual([0]);
    expect((await store.readStream(leaseStreamId(GROUP, 0))).length).toBe(LEASE_STREAM_MAX_COUNT);
    expect((await store.readStream(membersStreamId(GROUP))).length).toBe(MEMBERS_STREAM_MAX_COUNT);
  });

  it('reports the owned shards only when they change', async () => {
    const seen: number[][] = [];
    const a = instance(store, clock, 'a', { onChange: (owned) => seen.push(list(owned)) });
    const b = instance(store, clock, 'b');
    await a.refresh();
    clock.advance(INTERVAL);
    await a.refresh();
    await b.refresh();
    clock.advance(INTERVAL);
    await a.refresh();
    expect(seen).toEqual([ALL, [0, 1, 2, 3]]);
  });

  it('reports a lapse between rounds before renewing, so a worker that stopped on it hears it owns again', async () => {
    const seen: number[][] = [];
    const a = instance(store, clock, 'a', { onChange: (owned) => seen.push(list(owned)) });
    await a.refresh();
    const renewedAt = clock.now();
    clock.set(renewedAt + TTL - MARGIN); // the timer stalled: still the holder in the store, but no longer owning
    expect(a.lapsed()).toBe(true);
    expect(list(await a.refresh())).toEqual(ALL);
    expect(seen).toEqual([ALL, [], ALL]);
  });

  it('ensureCurrent runs a round only when no timer runs or a lease has lapsed', async () => {
    const rounds = async () => (await typesOf(leaseStreamId(GROUP, 0))).length;
    const a = instance(store, clock, 'a');
    await a.ensureCurrent(); // driven by hand: no timer
    expect(list(a.owned())).toEqual(ALL);
    await a.join();
    const afterJoin = await rounds();
    await a.ensureCurrent(); // the timer renews: nothing to do
    expect(await rounds()).toBe(afterJoin);
    clock.advance(TTL - MARGIN); // the timer fell behind
    await a.ensureCurrent();
    expect(await rounds()).toBe(afterJoin + 1);
    expect(a.lapsed()).toBe(false);
    await a.leave();
  });

  it('rejects a round on a store error and owns its shards only until their last lease ends', async () => {
    const a = instance(store, clock, 'a');
    await a.refresh();
    const renewedAt = clock.now();
    await store.close();
    clock.advance(INTERVAL);
    await expect(a.refresh()).rejects.toThrow(EventStoreClosedError);
    expect(list(a.owned())).toEqual(ALL);
    clock.set(renewedAt + TTL - MARGIN);
    expect(list(a.owned())).toEqual([]);
  });

  it('stops owning at once when stopped, even if the store fails, and reports the error', async () => {
    const a = instance(store, clock, 'a');
    await a.refresh();
    await store.close();
    await expect(a.stop()).rejects.toThrow(EventStoreClosedError);
    expect(list(a.owned())).toEqual([]);
  });

  describe('start', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    const heartbeats = async () =>
      (await typesOf(membersStreamId(GROUP))).filter((type) => type === 'MemberHeartbeat').length;

    it('runs a round at once and then every interval, until stopped', async () => {
      const a = instance(store, clock, 'a');
      a.start();
      await jest.advanceTimersByTimeAsync(0);
      expect(list(a.owned())).toEqual(ALL);
      expect(await heartbeats()).toBe(1);
      await jest.advanceTimersByTimeAsync(INTERVAL * 2);
      expect(await heartbeats()).toBe(3);

      await a.stop();
      await jest.advanceTimersByTimeAsync(INTERVAL * 2);
      expect(await heartbeats()).toBe(3);
      expect(() => a.start()).toThrow(ShardLeasesStoppedError);
    });

    it('hands round errors to onError and keeps trying', async () => {
      const errors: unknown[] = [];
      const a = instance(store, clock, 'a', { onError: (error) => errors.push(error) });
      await store.close();
      a.start(INTERVAL);
      await jest.advanceTimersByTimeAsync(INTERVAL);
      expect(errors).toEqual([expect.any(EventStoreClosedError), expect.any(EventStoreClosedError)]);
      await expect(a.stop()).rejects.toThrow(EventStoreClosedError);
      await jest.advanceTimersByTimeAsync(INTERVAL);
      expect(errors).toHaveLength(2);
    });
  });

  it.each([
    ['group', { group: '' }],
    ['owner', { owner: '' }],
    ['shardCount', { shardCount: 0 }],
    ['shardCount', { shardCount: 1.5 }],
    ['ttlMs', { ttlMs: 0 }],
    ['safetyMarginMs', { safetyMarginMs: TTL }],
    ['safetyMarginMs', { safetyMarginMs: -1 }],
  ])('refuses an unusable %s', (option, extra) => {
    expect(() => instance(store, clock, 'a', extra)).toThrow(
      expect.objectContaining({ name: InvalidShardLeasesOptionsError.name, option }),
    );
  });
});
