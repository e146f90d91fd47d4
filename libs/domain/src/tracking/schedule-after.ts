import { type TrackingPolicy } from './tracking-traits';
import { hashKey, type TrackingEvent, type TrackingState } from './tracking.state';

/**
 * The leg's next look after one at `now`: soon again when something changed, else twice as late as last time, up to
 * the policy's maximum; never sooner than the provider's own minimum interval, nor than it asked to wait.
 */
export function scheduleLeg(
  state: TrackingState,
  sliceId: string,
  {
    now,
    changed,
    failed,
    minIntervalMs,
    waitAtLeastMs = 0,
  }: {
    now: number;
    changed: boolean;
    failed: boolean;
    minIntervalMs: number;
    /** The provider asked to wait this long (a 429's Retry-After): the next poll is no sooner. */
    waitAtLeastMs?: number;
  },
  policy: TrackingPolicy,
): TrackingEvent {
  const previous = state.legs[sliceId];
  const base = Math.max(policy.pollMinMs, minIntervalMs);
  const backoff =
    changed || previous === undefined
      ? base
      : Math.min(Math.max(policy.pollMaxMs, base), previous.delayMs * 2);
  const delayMs = Math.max(backoff, waitAtLeastMs);
  return {
    type: 'LegScheduled',
    sliceId,
    schedule: {
      nextPollAt: now + delayMs,
      delayMs,
      lastPollAt: now,
      failureSince: failed ? (previous?.failureSince ?? now) : null,
    },
  };
}

/** A hash the node did not know or had not mined: read again later, backing off. */
export function scheduleHash(
  state: TrackingState,
  chainId: number,
  txHash: string,
  now: number,
  policy: TrackingPolicy,
): TrackingEvent {
  const key = hashKey(chainId, txHash);
  const previous = state.hashes[key];
  const delayMs =
    previous === undefined ? policy.hashRetryMinMs : Math.min(policy.hashRetryMaxMs, previous.delayMs * 2);
  return {
    type: 'HashScheduled',
    key,
    schedule: { firstTriedAt: previous?.firstTriedAt ?? now, nextReadAt: now + delayMs, delayMs },
  };
}

/** Whether a hash unknown to the node since its first read has been tried long enough to give up on. */
export function hashGivenUp(
  state: TrackingState,
  chainId: number,
  txHash: string,
  now: number,
  policy: TrackingPolicy,
): boolean {
  const previous = state.hashes[hashKey(chainId, txHash)];
  return previous !== undefined && now - previous.firstTriedAt >= policy.hashGiveUpMs;
}
