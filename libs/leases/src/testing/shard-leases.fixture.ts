import { type Decider } from '@svc/contract';
import { type Clock } from '@svc/platform';
import { aggregateStream, type EventStore } from '@svc/event-store';
import { type LeaseCommand } from '../lease.commands';
import { leaseDecider } from '../lease.decider';
import { type LeaseEvent } from '../lease.events';
import { type LeaseState } from '../lease.state';
import { leaseStreamId } from '../lease-streams';
import { ShardLeases } from '../shard-leases';
import { type ShardLeasesOptions } from '../shard-leases.options';

/** Test fixture: group `tracker` with 8 shards, 30 s leases renewed every 10 s, a 6 s safety margin. */
export const GROUP = 'tracker';
export const SHARDS = 8;
export const TTL = 30_000;
export const INTERVAL = TTL / 3;
export const MARGIN = TTL / 5;
export const ALL = [0, 1, 2, 3, 4, 5, 6, 7];

export const instance = (
  store: EventStore,
  clock: Clock,
  owner: string,
  extra: Partial<ShardLeasesOptions> = {},
): ShardLeases =>
  new ShardLeases({ store, clock, group: GROUP, shardCount: SHARDS, owner, ttlMs: TTL, ...extra });

export const list = (shards: ReadonlySet<number>): number[] => [...shards].sort((a, b) => a - b);

const ownerCount = (instances: readonly ShardLeases[], shard: number) =>
  instances.filter((leases) => leases.owns(shard)).length;

/** No shard is owned by two instances (the shards that are get listed). */
export function expectDisjoint(instances: readonly ShardLeases[]): void {
  expect(ALL.filter((shard) => ownerCount(instances, shard) > 1)).toEqual([]);
}

/** Every shard is owned by exactly one instance. */
export function expectSplit(instances: readonly ShardLeases[]): void {
  expect(ALL.map((shard) => ownerCount(instances, shard))).toEqual(ALL.map(() => 1));
}

/**
 * Replays a shard's lease stream and checks each event against the lease before it: an acquisition only of a
 * free, ended or own lease, a renewal only by the holder. It fails if two instances ever held the lease at once.
 */
export async function expectExclusiveHistory(store: EventStore, shard: number): Promise<void> {
  const checked: Decider<LeaseState, LeaseCommand, LeaseEvent> = {
    ...leaseDecider,
    evolve: (state, event) => {
      if (event.type === 'LeaseAcquired') {
        const { owner, at } = event.data;
        expect(state.owner === null || state.owner === owner || state.until <= at).toBe(true);
      } else {
        expect(state.owner).toBe(event.data.owner);
      }
      return leaseDecider.evolve(state, event);
    },
  };
  await aggregateStream(store, leaseStreamId(GROUP, shard), checked);
}
