import { type RecordedEvent as EsdbRecordedEvent } from '@kurrent/kurrentdb-client';
import { type RecordedEvent } from '../event-store.port';
import { encodeEsdbPosition } from './eventstoredb-position';

/** Stream names the adapter writes for itself; never shown to readers and subscribers. */
export const CHECKPOINT_STREAM_PREFIX = 'checkpoint-';

/** False for system events and streams (`$`-prefixed) and for the adapter's checkpoint streams. */
export function isApplicationEvent(event: EsdbRecordedEvent): boolean {
  return (
    !event.type.startsWith('$') &&
    !event.streamId.startsWith('$') &&
    !event.streamId.startsWith(CHECKPOINT_STREAM_PREFIX)
  );
}

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (event.position === undefined) {
    throw new Error(`EventStoreDB returned event ${event.id} without a position (server older than 22.6?)`);
  }
  return {
    id: event.id,
    type: event.type,
    data: asRecord(event.data) ?? {},
    metadata: asRecord(event.metadata) ?? {},
    streamId: event.streamId,
    revision: Number(event.revision),
    position: encodeEsdbPosition(event.position),
    recordedAt: event.created.toISOString(),
  };
}

// The adapter writes JSON only; bytes appear when the client could not parse them as JSON itself.
function asRecord(value: unknown): Record<string, unknown> | undefined {
  const parsed: unknown =
    value instanceof Uint8Array ? JSON.parse(Buffer.from(value).toString('utf8')) : value;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
}
