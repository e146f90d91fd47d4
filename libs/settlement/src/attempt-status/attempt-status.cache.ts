import { type AttemptSnapshot } from '@svc/contract';

/** One attempt's status as folded from its stream, and the revision of the newest event it folded. */
export interface CachedAttemptStatus {
  revision: number;
  /** The attempt's owner: a cached status is only ever served to this partner. */
  partnerId: string;
  body: AttemptSnapshot;
}

/** Attempts remembered by default: a few MB (a snapshot is a few kB), the hot set of a busy partner. */
export const ATTEMPT_STATUS_CACHE_SIZE = 1000;

/**
 * The status read model: a bounded least-recently-used map of attempt snapshots, each keyed by the stream revision
 * it was folded at. A hit needs the caller's current revision, so an entry is served only while the stream still
 * ends at that event (exactly as fresh as the stream); a newer revision replaces it, never an older one.
 */
export class AttemptStatusCache {
  private readonly entries = new Map<string, CachedAttemptStatus>();

  constructor(readonly capacity = ATTEMPT_STATUS_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry folded at exactly `revision`, now the most recently used; undefined otherwise. */
  at(attemptId: string, revision: number): CachedAttemptStatus | undefined {
    const entry = this.entries.get(attemptId);
    if (entry === undefined || entry.revision !== revision) return undefined;
    this.entries.delete(attemptId);
    this.entries.set(attemptId, entry);
    return entry;
  }

  /** Remembers `entry` unless a newer revision of the attempt is already held; evicts the least recently used. */
  remember(attemptId: string, entry: CachedAttemptStatus): void {
    const held = this.entries.get(attemptId);
    if (held !== undefined && held.revision > entry.revision) return;
    this.entries.delete(attemptId);
    this.entries.set(attemptId, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
