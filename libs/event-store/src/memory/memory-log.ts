import { type RecordedEvent } from '../event-store.port';
import { encodeSequencePosition } from '../sequence-position';
import { type MemoryEvent } from './memory-event-store.state';

/** Binary search: index of the first event with a sequence greater than `sequence`. */
export function firstIndexAfter(log: readonly MemoryEvent[], sequence: number): number {
  let low = 0;
  let high = log.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (log[middle].sequence <= sequence) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A copy for the caller: data and metadata are parsed afresh from the stored JSON. */
export function toRecorded(event: MemoryEvent): RecordedEvent {
  return {
    id: event.id,
    type: event.type,
    data: JSON.parse(event.data) as Record<string, unknown>,
    metadata: JSON.parse(event.metadata) as Record<string, unknown>,
    streamId: event.streamId,
    revision: event.revision,
    position: encodeSequencePosition(event.sequence),
    recordedAt: new Date(event.recordedAtMs).toISOString(),
  };
}
