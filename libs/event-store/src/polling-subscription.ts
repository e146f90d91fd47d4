import { type AppendSignal } from './append-signal';
import { comparePositions } from './compare-positions';
import {
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './event-store.port';

/** What a polling subscription needs from a store that can answer "what came after position X". */
export interface PollingFeed {
  /**
   * Up to `limit` matching events after `after`, and how far the scan looked (`scannedTo`, at least the last
   * event's position). Tracking the scan, not only the last match, keeps a subscription on a rare prefix from
   * re-reading the same unrelated events on every poll.
   */
  readPage(
    after: Position | undefined,
    prefixes: readonly string[],
    limit: number,
  ): Promise<{ events: RecordedEvent[]; scannedTo: Position | undefined }>;
  readCheckpoint(subscriptionId: string): Promise<Position | undefined>;
  storeCheckpoint(subscriptionId: string, position: Position): Promise<void>;
  /** Wakes the subscription on appends to its streams (the store signals other processes' appends too). */
  signal: AppendSignal;
}

const PAGE_SIZE = 100;
/**
 * While live, the checkpoint is saved at most this often (and after a full page's worth of events): each save is a
 * durable write, as costly as an append. A stop or a failing handler always saves it.
 */
const CHECKPOINT_EVERY_MS = 1000;

/**
 * Catch-up then live delivery for stores without a push API: read a page after the cursor, hand each event to the
 * handler, store the checkpoint when due (CHECKPOINT_EVERY_MS), and when caught up wait until an append to one of its
 * streams is signalled. Appends signalled while it reads or handles are coalesced into the next read.
 */
export async function startPollingSubscription(
  feed: PollingFeed,
  options: SubscribeOptions,
): Promise<Subscription> {
  const { subscriptionId, streamPrefixes, handler, onError } = options;
  const abort = new AbortController();
  let cursor = await feed.readCheckpoint(subscriptionId);

  const watch = feed.signal.watch(streamPrefixes);

  let handled = cursor;
  let stored = cursor;
  let unsaved = 0;
  let savedAt = Date.now();
  /** Saves the last event handled, now (`force`) or when it is due: a crash redelivers what was not saved. */
  const checkpoint = async (force: boolean): Promise<void> => {
    if (handled === undefined || handled === stored) return;
    if (!force && unsaved < PAGE_SIZE && Date.now() - savedAt < CHECKPOINT_EVERY_MS) return;
    await feed.storeCheckpoint(subscriptionId, handled);
    [stored, unsaved, savedAt] = [handled, 0, Date.now()];
  };

  const run = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      watch.reading();
      const page = await feed.readPage(cursor, streamPrefixes, PAGE_SIZE);
      let failed = true;
      try {
        for (const event of page.events) {
          if (abort.signal.aborted) return;
          await handler(event);
          // Even when stop() came during the handler: it resolved, so moving past the event is safe.
          cursor = handled = event.position;
          unsaved++;
        }
        failed = false;
      } finally {
        await checkpoint(failed || abort.signal.aborted);
      }
      if (
        page.scannedTo !== undefined &&
        (cursor === undefined || comparePositions(page.scannedTo, cursor) > 0)
      ) {
        cursor = page.scannedTo;
      }
      if (page.events.length < PAGE_SIZE) await watch.wait(abort.signal);
    }
    await checkpoint(true);
  };

  const done = run()
    .catch((error: unknown) => {
      abort.abort();
      onError?.(error);
    })
    .finally(watch.close);

  return {
    async stop() {
      abort.abort();
      await done;
    },
  };
}
