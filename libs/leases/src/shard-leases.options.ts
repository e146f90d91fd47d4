import { type Clock } from '@svc/platform';
import { type EventStore } from '@svc/event-store';
import { InvalidShardLeasesOptionsError } from './invalid-shard-leases-options.error';

export interface ShardLeasesOptions {
  store: EventStore;
  clock: Clock;
  /** Names the kind of work shared out (`settlement-tracker`); instances of one group split its shards. */
  group: string;
  /** The same for every instance of the group. */
  shardCount: number;
  /** Unique per live instance (for example hostname and a random suffix): two instances with one id both own. */
  owner: string;
  /** How long a lease lasts without renewal: how long a dead instance's shards wait before another takes them. */
  ttlMs: number;
  /**
   * `owns` turns false this long before the lease ends, so an instance whose renewals stall stops working before
   * another may take over (room for clock skew and in-flight work). Default ttlMs / 5.
   */
  safetyMarginMs?: number;
  /**
   * Called when a round or stop finds the owned shards changed since the last call. A lapse between rounds (the
   * timer fell behind and `owns` turned false) counts: the next round reports the shards gone before it renews
   * them, then reports them owned again.
   */
  onChange?: (owned: ReadonlySet<number>) => void;
  /** Receives the errors of rounds run by `start` (the next round tries again). Default: ignored. */
  onError?: (error: unknown) => void;
}

export function validateShardLeasesOptions(options: ShardLeasesOptions): void {
  const { group, owner, shardCount, ttlMs, safetyMarginMs = ttlMs / 5 } = options;
  if (group === '') throw new InvalidShardLeasesOptionsError('group', 'must not be empty');
  if (owner === '') throw new InvalidShardLeasesOptionsError('owner', 'must not be empty');
  if (!Number.isInteger(shardCount) || shardCount < 1) {
    throw new InvalidShardLeasesOptionsError('shardCount', `must be a positive integer, got ${shardCount}`);
  }
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new InvalidShardLeasesOptionsError('ttlMs', `must be a positive number, got ${ttlMs}`);
  }
  if (!(safetyMarginMs >= 0 && safetyMarginMs < ttlMs)) {
    throw new InvalidShardLeasesOptionsError(
      'safetyMarginMs',
      `must be in [0, ttlMs), got ${safetyMarginMs}`,
    );
  }
}
