import { type EventStore } from '@svc/event-store';
import { type Clock } from '@svc/platform';
import { ShardLeases } from './shard-leases';

/**
 * How an instance shares background work (settlement tracking, webhook delivery, the outbox relay) with the other
 * instances on the same store: work is split into `shardCount` shards by key, each leased to one instance
 * (`ShardLeases`). Every instance on a store must use the same `shardCount`.
 */
export interface WorkSharing {
  /** Unique per running process; names it in the leases. */
  instanceId: string;
  shardCount: number;
  /** A lease not renewed for this long may be taken over; renewed every third of it. */
  leaseTtlMs: number;
}

export const WORK_SHARING = Symbol('WORK_SHARING');

/** The leases of one worker group on this instance, as its WorkSharing says (one shard: a singleton worker). */
export function leasesFor(
  sharing: WorkSharing,
  worker: {
    store: EventStore;
    clock: Clock;
    group: string;
    /** Default: `sharing.shardCount`. */
    shardCount?: number;
    onChange?: (owned: ReadonlySet<number>) => void;
    onError?: (error: unknown) => void;
  },
): ShardLeases {
  return new ShardLeases({
    store: worker.store,
    clock: worker.clock,
    group: worker.group,
    shardCount: worker.shardCount ?? sharing.shardCount,
    owner: sharing.instanceId,
    ttlMs: sharing.leaseTtlMs,
    onChange: worker.onChange,
    onError: worker.onError,
  });
}
