import { EventStoreClosedError } from './event-store-closed.error';
import { type EventStore, WrongExpectedVersionError } from './event-store.port';
import { withAppend } from './with-append';

/** Whether this process's writes to its event store succeed: /readyz's `eventStoreWrites` (security review N-L7). */
export interface WriteHealth {
  /** Resolves when writes succeed now; rejects, saying why, when they do not. */
  check(): Promise<void>;
}

export interface WatchWritesOptions {
  /**
   * A failed append counts this long unless one succeeds meanwhile (default 10 s): long enough to take the instance
   * out of the balancer, short enough that one with no traffic left (a gateway whose only writes are requests' nonces)
   * is tried again, and, if still failing, out again at its next append.
   */
  holdMs?: number;
  now?: () => number;
}

const HEALTH = Symbol('writeHealth');

type Watched = EventStore & { [HEALTH]: WriteHealth };

/**
 * The store with the outcome of every append watched: an append that fails for the store's own reasons (a full disk,
 * a lost connection; not a revision conflict, not a closed store) makes writeHealthOf(store).check() reject until an
 * append succeeds or `holdMs` pass. check() also runs the adapter's probeWrite (SQLite: a rolled-back write needing
 * new pages), so an idle instance whose store cannot take a write is not ready either. Watching a watched store
 * returns it as it is.
 */
export function watchWrites(store: EventStore, options: WatchWritesOptions = {}): EventStore {
  if (isWatched(store)) return store;
  const holdMs = options.holdMs ?? 10_000;
  const now = options.now ?? Date.now;
  let failure: { at: number; reason: string } | null = null;
  const health: WriteHealth = {
    async check() {
      await store.probeWrite?.();
      if (failure !== null && now() - failure.at < holdMs)
        throw new Error(`an append failed ${now() - failure.at} ms ago: ${failure.reason}`);
    },
  };
  const append: EventStore['append'] = (streamId, events, appendOptions) =>
    store.append(streamId, events, appendOptions).then(
      (result) => {
        failure = null;
        return result;
      },
      (error: unknown) => {
        if (isStoreFailure(error)) failure = { at: now(), reason: reasonOf(error) };
        throw error;
      },
    );
  return withAppend(store, append, { [HEALTH]: health });
}

/** The write health of a watched store; of any other store, its probeWrite alone (none: always healthy). */
export function writeHealthOf(store: EventStore): WriteHealth {
  return isWatched(store) ? store[HEALTH] : { check: async () => store.probeWrite?.() };
}

function isWatched(store: EventStore): store is Watched {
  return (store as Partial<Watched>)[HEALTH] !== undefined;
}

/** Not the caller's doing: a conflict is retried, a closed store is a shutdown, a bad argument a bug. */
function isStoreFailure(error: unknown): boolean {
  return !(
    error instanceof WrongExpectedVersionError ||
    error instanceof EventStoreClosedError ||
    error instanceof RangeError ||
    error instanceof TypeError
  );
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
