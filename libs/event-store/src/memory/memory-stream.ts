import { type AppendOptions } from '../event-store.port';
import { type StreamHead } from '../plan-append';
import { isLive, type MemoryEvent, type MemoryStream } from './memory-event-store.state';

/** Events of the stream a read may return now (not expired, not cut by maxCount). */
export function liveEvents(stream: MemoryStream | undefined, now: number): MemoryEvent[] {
  return stream === undefined ? [] : stream.events.filter((event) => isLive(event, now));
}

/** The stream as planAppend judges an append against it: its revision and the ids of its live events. */
export function streamHead(stream: MemoryStream | undefined, now: number): StreamHead {
  return {
    revision: stream?.revision,
    idsAt: (from, count) =>
      liveEvents(stream, now)
        .filter((event) => event.revision >= from && event.revision < from + count)
        .map((event) => event.id),
  };
}

/** Settings carried by an append replace the stream's; a new maxAge re-dates the events already stored. */
export function applySettings(stream: MemoryStream, options: AppendOptions): void {
  if (options.maxCount !== undefined) stream.maxCount = options.maxCount;
  if (options.maxAgeSeconds === undefined || options.maxAgeSeconds === stream.maxAgeSeconds) return;
  const maxAgeMs = options.maxAgeSeconds * 1000;
  stream.maxAgeSeconds = options.maxAgeSeconds;
  for (const event of stream.events) event.expiresAtMs = event.recordedAtMs + maxAgeMs;
}

/** Drops what maxCount cuts off right away, so a capped stream (checkpoints) never grows. */
export function trimToMaxCount(stream: MemoryStream): void {
  if (stream.maxCount === undefined) return;
  cutBefore(stream, stream.revision - stream.maxCount + 1);
}

/** Removes the stream's events below `keepFrom` (dropped from the global log at its next compaction). */
export function cutBefore(stream: MemoryStream, keepFrom: number): void {
  const cut = stream.events.filter((event) => event.revision < keepFrom);
  for (const event of cut) event.removed = true;
  stream.events = stream.events.filter((event) => event.revision >= keepFrom);
}
