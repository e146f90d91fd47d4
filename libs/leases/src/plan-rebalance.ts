import { type LeaseState } from './lease.state';

/** What one instance does with the shards in a refresh round, shard numbers in the order to act on them. */
export interface RebalancePlan {
  /** Leases the store says are mine, within my fair share: renew them (lowest first). */
  renew: number[];
  /** Leases of mine beyond my fair share: hand them back (highest first). */
  release: number[];
  /** Free or expired leases, lowest first: take them while I hold fewer than my fair share. */
  acquire: number[];
}

/** Plans a round from every shard's lease (index = shard number) as read at `now`. */
export function planRebalance(
  leases: readonly LeaseState[],
  owner: string,
  now: number,
  share: number,
): RebalancePlan {
  const mine: number[] = [];
  const acquire: number[] = [];
  leases.forEach((lease, shard) => {
    if (lease.owner === owner) mine.push(shard);
    else if (lease.owner === null || lease.until <= now) acquire.push(shard);
  });
  return { renew: mine.slice(0, share), release: mine.slice(share).reverse(), acquire };
}
