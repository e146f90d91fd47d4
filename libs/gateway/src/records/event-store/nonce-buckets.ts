import { createHash } from 'node:crypto';
import { nonceBucketStreamId } from '@svc/domain';
import { AUTH_WINDOW_MS, NONCE_RETENTION_SECONDS } from '../../nonce/nonce-retention';

/**
 * A bucket's time window: the span of timestamps a request may carry at one moment (±AUTH_WINDOW_MS). A partner's
 * nonces land in the bucket of the window of the moment they are bound (the server's clock, not the request's).
 */
export const NONCE_BUCKET_WINDOW_MS = 2 * AUTH_WINDOW_MS;

/**
 * Buckets per partner and window, by the nonce's sha256 (its first hex digit): each stream, and what a process reads
 * of it the first time, is a sixteenth of the partner's requests in the window.
 */
export const NONCE_BUCKET_SHARDS = 16;

/**
 * How far the clocks of two gateway replicas may disagree. Every bind reads the windows of its moment ± this, so
 * that it sees a bind made at the same moment by a replica whose clock is already in the next window (or still in
 * the previous one).
 */
export const NONCE_CLOCK_SKEW_MS = 60_000;

const RETENTION_MS = NONCE_RETENTION_SECONDS * 1000;

/**
 * The buckets' maxAge: an event stays as long as any bind may still read its window (its window, the retention and
 * the skew either way), so a process that reads a bucket for the first time sees what one that has followed it
 * since its start sees.
 */
export const NONCE_BUCKET_MAX_AGE_SECONDS =
  (NONCE_BUCKET_WINDOW_MS + RETENTION_MS + 2 * NONCE_CLOCK_SKEW_MS) / 1000;

/** One bucket stream and the start of its window (epoch ms). */
export interface NonceBucket {
  streamId: string;
  windowStart: number;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A partner id as bucket names spell it: the first 16 hex digits of its sha256 (fixed length: no '-' to misread). */
export function partnerDigest(partnerId: string): string {
  return sha256Hex(partnerId).slice(0, 16);
}

/** The nonce's shard: the first hex digit of its sha256 (NONCE_BUCKET_SHARDS of them). */
export function nonceShard(nonce: string): string {
  return sha256Hex(nonce).slice(0, 1);
}

const windowStartOf = (at: number) => Math.floor(at / NONCE_BUCKET_WINDOW_MS) * NONCE_BUCKET_WINDOW_MS;

/** The bucket a bind at `at` appends to: the partner's, the nonce's shard, the window holding `at`. */
export function bucketToWrite(partnerId: string, nonce: string, at: number): NonceBucket {
  const windowStart = windowStartOf(at);
  return {
    streamId: nonceBucketStreamId(partnerDigest(partnerId), windowStart, nonceShard(nonce)),
    windowStart,
  };
}

/**
 * The buckets a read at `at` consults, oldest first: every window a binding still kept (NONCE_RETENTION_SECONDS) may
 * have been written to, by this replica or one whose clock is up to NONCE_CLOCK_SKEW_MS off. Two or three windows.
 */
export function bucketsToRead(partnerId: string, nonce: string, at: number): NonceBucket[] {
  const digest = partnerDigest(partnerId);
  const shard = nonceShard(nonce);
  const buckets: NonceBucket[] = [];
  const last = windowStartOf(at + NONCE_CLOCK_SKEW_MS);
  for (let start = windowStartOf(at - RETENTION_MS - NONCE_CLOCK_SKEW_MS); start <= last;) {
    buckets.push({ streamId: nonceBucketStreamId(digest, start, shard), windowStart: start });
    start += NONCE_BUCKET_WINDOW_MS;
  }
  return buckets;
}
