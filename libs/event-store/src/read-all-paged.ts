import { comparePositions } from './compare-positions';
import { type EventStore, type Position, type RecordedEvent } from './event-store.port';

/**
 * Catches up with the global log: every event of the given streams after `after`, in pages of `pageSize`, handed to
 * `onEvent` in order. Returns how far the log was read (the store's `scannedTo`: past the last event handed over
 * when the log's tail held only other streams' events), to pass as `after` next time, so a follower of sparse streams
 * never filters the same tail twice. `after` itself when nothing was read.
 */
export async function readAllPaged(
  store: EventStore,
  options: { after: Position | undefined; streamPrefixes: string[]; pageSize?: number },
  onEvent: (event: RecordedEvent) => void,
): Promise<Position | undefined> {
  const pageSize = options.pageSize ?? 500;
  let position = options.after;
  for (;;) {
    const page = await store.readAllPage({
      after: position,
      streamPrefixes: options.streamPrefixes,
      maxCount: pageSize,
    });
    for (const event of page.events) {
      onEvent(event);
      position = event.position;
    }
    position = laterOf(position, page.scannedTo);
    if (page.events.length < pageSize) return position;
  }
}

/** The later of two positions (undefined: before the first event). */
export function laterOf(a: Position | undefined, b: Position | undefined): Position | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}
