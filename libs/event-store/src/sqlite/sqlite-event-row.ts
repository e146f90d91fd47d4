import { type RecordedEvent } from '../event-store.port';
import { encodeSequencePosition } from '../sequence-position';

/** A row of the `events` table; times are epoch milliseconds, data and metadata JSON text. */
export interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: number;
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    streamId: row.stream_id,
    revision: row.revision,
    position: encodeSequencePosition(row.position),
    recordedAt: new Date(row.recorded_at).toISOString(),
  };
}
