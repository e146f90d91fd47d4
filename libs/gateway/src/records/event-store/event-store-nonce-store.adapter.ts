import { randomUUID } from 'node:crypto';
import {
  decideNonce,
  initialNonceState,
  nonceBucketEvent,
  nonceBucketReader,
  nonceDecider,
  NonceRefusedError,
  type NonceState,
  type UseNonce,
} from '@svc/domain';
import { comparePositions, type EventStore, foldStoredEvents, type Position } from '@svc/event-store';
// Types only, as the SQLite store: the platform's decorators are not needed here.
import type { Clock } from '@svc/platform';
import { type NonceStore } from '../../nonce/nonce-store.port';
import {
  type NonceBucket,
  bucketsToRead,
  bucketToWrite,
  NONCE_BUCKET_MAX_AGE_SECONDS,
} from './nonce-buckets';

/** What this process has read of one bucket stream. */
interface BucketRead {
  windowStart: number;
  /** Every event below this revision was read. */
  next: number;
  /** The first NonceUsed of each nonce in the stream (stream order), with its global position. */
  first: Map<string, { tupleHash: string; usedAt: number; position: Position }>;
}

/**
 * Nonce bindings in the event store (memory, EventStoreDB), bucketed: one stream per partner, time window and shard
 * of the nonce (nonce-buckets.ts; `nonce-<sha256(partnerId)[0..16]>-<window>-<shard>`), so the number of streams grows
 * with time, not with requests (M10), and no partner id can spell another partner's stream (L3). The bucket's maxAge
 * goes with the append that creates it: EventStoreDB writes the stream's metadata once per bucket, not per request.
 *
 * A bind appends its NonceUsed (with the nonce) to the bucket of its moment without an expected revision (no
 * contention between binds of one bucket), then reads every bucket the nonce may be in and takes the nonce's FIRST
 * NonceUsed in the store's global order (the events' positions) as its binding: first writer wins, and the nonce
 * decider judges the tuple against it (the same tuple again is a retried delivery; another is refused).
 *
 * Why every binder of a nonce finds the same first event: positions follow the order appends complete in (one
 * writer per store: EventStoreDB's log on its leader, SQLite's write lock, the memory store's one thread), and an
 * append's event is readable once it completed. Let e be the nonce's NonceUsed with the lowest position. Any binder
 * appended its own event after e's append completed (a higher position) and reads after its own append completed,
 * so it reads e; nothing it reads comes before e. The buckets a bind reads cover the retention and the replicas'
 * clock skew (NONCE_CLOCK_SKEW_MS), so they include the bucket e went to. A read that appended nothing (`binding`)
 * has no such fence: when it finds the nonce bound it reads again, and the second read sees every event that comes
 * before the one the first found.
 *
 * Each instance keeps what it read of each bucket and reads only the events after it (a bucket's events never change;
 * older ones only expire, after the last read of their window), and forgets buckets once their window is no longer
 * read. Binds append one event each, a retried delivery too; the events expire with the bucket's maxAge.
 */
export class EventStoreNonceStore implements NonceStore {
  private readonly clock: Clock;
  private readonly reads = new Map<string, BucketRead>();
  /** Buckets whose window starts before this were forgotten. */
  private forgottenBefore = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: EventStore,
    options: { clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? { now: () => Date.now() };
  }

  async binding(partnerId: string, nonce: string): Promise<NonceState> {
    const buckets = bucketsToRead(partnerId, nonce, this.clock.now());
    const seen = await this.heldIn(buckets, nonce);
    return seen.status === 'unused' ? seen : this.heldIn(buckets, nonce);
  }

  async use(partnerId: string, nonce: string, command: UseNonce): Promise<boolean> {
    const { now } = command.data;
    // What the decider records for the nonce unused: this request's claim, appended whatever the bucket holds.
    const [claim] = decideNonce(command, initialNonceState);
    const { type, data } = nonceBucketEvent(nonce, claim);
    await this.store.append(
      bucketToWrite(partnerId, nonce, now).streamId,
      [{ id: randomUUID(), type, data }],
      {
        expectedRevision: 'any',
        maxAgeSeconds: NONCE_BUCKET_MAX_AGE_SECONDS,
      },
    );
    const held = await this.heldIn(bucketsToRead(partnerId, nonce, now), nonce);
    try {
      decideNonce(command, held);
      return true;
    } catch (err) {
      if (err instanceof NonceRefusedError) return false;
      throw err;
    }
  }

  /** The nonce's binding in these buckets, each read up to now: its first NonceUsed by global position. */
  private async heldIn(buckets: NonceBucket[], nonce: string): Promise<NonceState> {
    this.forgetBefore(buckets[0].windowStart);
    const reads = await Promise.all(buckets.map((bucket) => this.readOn(bucket)));
    const found = reads.flatMap((read) => {
      const first = read.first.get(nonce);
      return first === undefined ? [] : [first];
    });
    found.sort((a, b) => comparePositions(a.position, b.position));
    return found.reduce<NonceState>(
      (state, { tupleHash, usedAt }) =>
        nonceDecider.evolve(state, { type: 'NonceUsed', data: { tupleHash, usedAt } }),
      initialNonceState,
    );
  }

  /** Reads the bucket's events after what this instance read of it, each through the command seam's fold. */
  private async readOn({ streamId, windowStart }: NonceBucket): Promise<BucketRead> {
    let read = this.reads.get(streamId);
    if (read === undefined) {
      read = { windowStart, next: 0, first: new Map() };
      this.reads.set(streamId, read);
    }
    // Always a read of its own, started now: a read already under way may have started before the caller's append.
    const events = await this.store.readStream(streamId, { fromRevision: read.next });
    for (const recorded of events) {
      if (recorded.revision < read.next) continue; // a concurrent call of this instance took it already
      // An unknown type (a newer build's) is skipped; a malformed NonceUsed refuses the bucket (MalformedEventError).
      const event = foldStoredEvents(nonceBucketReader, null, [recorded]);
      read.next = recorded.revision + 1;
      if (event !== null && !read.first.has(event.data.nonce)) {
        const { tupleHash, usedAt } = event.data;
        read.first.set(event.data.nonce, { tupleHash, usedAt, position: recorded.position });
      }
    }
    return read;
  }

  /** Forgets the buckets no read consults any more (their window is past), once per window. */
  private forgetBefore(windowStart: number): void {
    if (windowStart <= this.forgottenBefore) return;
    this.forgottenBefore = windowStart;
    for (const [streamId, read] of this.reads)
      if (read.windowStart < windowStart) this.reads.delete(streamId);
  }
}
