import { type EventStore, type NewEvent, WrongExpectedVersionError } from '../../event-store.port';

/**
 * The application's write pattern (ARCHITECTURE.md "Streams"): read the head, append at that revision,
 * and on a conflict re-read and try again. Returns how many conflicts it met.
 */
export async function appendWithRetry(store: EventStore, streamId: string, event: NewEvent): Promise<number> {
  for (let conflicts = 0; ; conflicts++) {
    const [last] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    try {
      await store.append(streamId, [event], { expectedRevision: last?.revision ?? 'no_stream' });
      return conflicts;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
}
