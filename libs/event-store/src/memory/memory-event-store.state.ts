import { AppendSignal } from '../append-signal';
import { type Position } from '../event-store.port';
import { type SerialisedEvent } from '../serialise-event';

/** Data and metadata are kept as JSON text, like the other stores, so callers never share mutable objects with it. */
export interface MemoryEvent extends SerialisedEvent {
  sequence: number;
  streamId: string;
  revision: number;
  recordedAtMs: number;
  expiresAtMs: number | undefined;
  /** Cut by the stream's maxCount; dropped from the global log at the next compaction. */
  removed: boolean;
}

export interface MemoryStream {
  /** Kept after every event expired, so 'no_stream' stays rejected (as in EventStoreDB). */
  revision: number;
  maxAgeSeconds: number | undefined;
  maxCount: number | undefined;
  events: MemoryEvent[];
}

/**
 * Everything a memory store holds. Separate from the store so that a test can "restart" the store:
 * a new MemoryEventStore over the same state sees the same streams, checkpoints and notifications.
 */
export class MemoryEventStoreState {
  readonly streams = new Map<string, MemoryStream>();
  /** Global order; sorted by sequence, compacted (expired and removed events dropped) at most once a second. */
  log: MemoryEvent[] = [];
  lastSequence = 0;
  lastCompactionMs = Number.NEGATIVE_INFINITY;
  readonly checkpoints = new Map<string, Position>();
  readonly signal = new AppendSignal();
}

export function isLive(event: MemoryEvent, nowMs: number): boolean {
  return !event.removed && (event.expiresAtMs === undefined || event.expiresAtMs > nowMs);
}
