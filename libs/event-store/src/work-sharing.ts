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
