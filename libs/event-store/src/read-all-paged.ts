import { type EventStore, type Position, type RecordedEvent } from './event-store.port';

/**
 * Catches up with the global log: every event of the given streams after `after`, in pages of `pageSize`, handed to
 * `onEvent` in order. Returns the position of the last event seen (or `after` when there was none), to pass as
 * `after` next time.
 */
export async function readAllPaged(
  store: EventStore,
  options: { after: Position | undefined; streamPrefixes: string[]; pageSize?: number },
  onEvent: (event: RecordedEvent) => void,
): Promise<Position | undefined> {
  const pageSize = options.pageSize ?? 500;
  let position = options.after;
  for (;;) {
    const events = await store.readAll({
      after: position,
      streamPrefixes: options.streamPrefixes,
      maxCount: pageSize,
    });
    for (const event of events) {
      onEvent(event);
      position = event.position;
    }
    if (events.length < pageSize) return position;
  }
}
