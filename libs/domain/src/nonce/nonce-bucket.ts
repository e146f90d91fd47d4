import { type Decider } from '@svc/contract';
import { type NonceBucketEvent, nonceBucketEventShapes, type NonceEvent } from './nonce.events';

/**
 * `nonce-<partnerDigest>-<window>-<shard>`: the stream holding the bindings of one partner's nonces of one shard,
 * made in one time window (its start, UTC, as `yyyymmddThhmm`). The partner is named by a fixed-length digest
 * (16 hex), so no partner id and nonce can spell another's stream (L3: partner `a` with nonce `b-…` against partner
 * `a-b`); the window and shard keep the number of streams to partners × windows × shards, whatever the number of
 * requests (M10). Hashing is the caller's (the domain has no crypto); a nonce is at least 16 characters, so no
 * stream of the older per-nonce layout (`nonce-<partnerId>-<nonce>`) has this shape.
 */
export function nonceBucketStreamId(partnerDigest: string, windowStartMs: number, shard: string): string {
  const stamp = new Date(windowStartMs).toISOString(); // 2026-11-25T10:00:00.000Z
  const window = `${stamp.slice(0, 4)}${stamp.slice(5, 7)}${stamp.slice(8, 13)}${stamp.slice(14, 16)}`;
  return `nonce-${partnerDigest}-${window}-${shard}`;
}

/** The stored form of a nonce's event: with the nonce, in its bucket. */
export function nonceBucketEvent(nonce: string, event: NonceEvent): NonceBucketEvent {
  return { type: event.type, data: { nonce, ...event.data } };
}

/**
 * Reads one stored event of a bucket through the command seam (foldStoredEvents): the state is the event read, or
 * null when its type is one this build does not know (skipped). A NonceUsed without its nonce and tuple is malformed
 * (MalformedEventError: the bucket is refused). Appends nothing itself: the nonce decider decides.
 */
export const nonceBucketReader: Decider<NonceBucketEvent | null, never, NonceBucketEvent> = {
  name: 'nonce-bucket',
  initialState: null,
  // A type this build does not know (a newer build's) reads as nothing new.
  evolve: (state, event) => (event.type === 'NonceUsed' ? event : state),
  decide: () => [],
  ...nonceBucketEventShapes,
};
