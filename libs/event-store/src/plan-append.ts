import { type ExpectedRevision, WrongExpectedVersionError } from './event-store.port';

/** What an append does once the expected revision is checked: write new events or acknowledge a retry. */
export type AppendPlan =
  { kind: 'write'; firstRevision: number } | { kind: 'duplicate'; lastRevision: number };

export interface StreamHead {
  /** Revision of the stream's last event; undefined if the stream was never written. */
  revision: number | undefined;
  /** Ids of the still-visible events at revisions `from`..`from + count - 1`, in order (fewer if some are gone). */
  idsAt(from: number, count: number): string[];
}

/**
 * The optimistic-concurrency rule shared by the memory and SQLite stores, written to match EventStoreDB:
 * a batch whose ids are exactly the events already written right after the expected revision (or at the
 * stream's tail for 'any') is a retry of an append that succeeded, so it is acknowledged, not written twice.
 */
export function planAppend(
  streamId: string,
  ids: readonly string[],
  expected: ExpectedRevision,
  head: StreamHead,
): AppendPlan {
  if (ids.length === 0) throw new RangeError(`append to ${streamId}: a batch needs at least one event`);
  const current = head.revision;
  const next = (current ?? -1) + 1;
  if (expected === 'any') {
    const tail = (current ?? -1) - ids.length + 1;
    if (current !== undefined && tail >= 0 && sameIds(head.idsAt(tail, ids.length), ids)) {
      return { kind: 'duplicate', lastRevision: current };
    }
    return { kind: 'write', firstRevision: next };
  }
  const matches = expected === 'no_stream' ? current === undefined : current === expected;
  if (matches) return { kind: 'write', firstRevision: next };
  const after = expected === 'no_stream' ? -1 : expected;
  if (
    current !== undefined &&
    after + ids.length <= current &&
    sameIds(head.idsAt(after + 1, ids.length), ids)
  ) {
    return { kind: 'duplicate', lastRevision: after + ids.length };
  }
  throw new WrongExpectedVersionError(streamId, expected, current ?? 'no_stream');
}

function sameIds(found: readonly string[], wanted: readonly string[]): boolean {
  return found.length === wanted.length && found.every((id, i) => id === wanted[i]);
}
