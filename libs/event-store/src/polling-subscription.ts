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
  signal: AppendSignal;
  /** Re-query this often even without an in-process signal (appends from other processes); none: signal only. */
  pollIntervalMs?: number;
}

const PAGE_SIZE = 100;

/**
 * Catch-up then live delivery for stores without a push API: read a page after the cursor, hand each event
 * to the handler, store the checkpoint, and when caught up wait for a signal or the poll interval.
 */
export async function startPollingSubscription(
  feed: PollingFeed,
  options: SubscribeOptions,
): Promise<Subscription> {
  const { subscriptionId, streamPrefixes, handler, onError } = options;
  const abort = new AbortController();
  let cursor = await feed.readCheckpoint(subscriptionId);

  const run = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      const seen = feed.signal.version;
      const page = await feed.readPage(cursor, streamPrefixes, PAGE_SIZE);
      for (const event of page.events) {
        if (abort.signal.aborted) return;
        await handler(event);
        // Even when stop() came during the handler: it resolved, so moving past the event is safe.
        await feed.storeCheckpoint(subscriptionId, event.position);
        cursor = event.position;
      }
      if (
        page.scannedTo !== undefined &&
        (cursor === undefined || comparePositions(page.scannedTo, cursor) > 0)
      ) {
        cursor = page.scannedTo;
      }
      if (page.events.length < PAGE_SIZE) await feed.signal.wait(seen, abort.signal, feed.pollIntervalMs);
    }
  };

  const done = run().catch((error: unknown) => {
    abort.abort();
    onError?.(error);
  });

  return {
    async stop() {
      abort.abort();
      await done;
    },
  };
}
