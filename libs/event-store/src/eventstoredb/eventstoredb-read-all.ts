import { type AllStreamRecordedEvent, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import { comparePositions } from '../compare-positions';
import {
  type Position,
  type ReadAllOptions,
  type ReadAllPage,
  type RecordedEvent,
} from '../event-store.port';
import { matchesPrefixes } from '../matches-prefixes';
import { collect } from './collect';
import { decodeEsdbPosition, encodeEsdbPosition } from './eventstoredb-position';
import { StreamVisibility } from './eventstoredb-stream-visibility';
import { kurrent } from './kurrent-client';
import { isApplicationEvent, toRecordedEvent } from './to-recorded-event';

const PAGE_SIZE = 500;

/**
 * readAll of the port on $all. The client's readAll has no server-side filter in this version, so pages of
 * $all are filtered here (prefixes, system events, expiry). Its fromPosition is inclusive while `after` is
 * exclusive: every event at or before the last position seen is skipped. `scannedTo` is the last event of $all
 * looked at (a full page: the last one returned), so a follower of sparse streams never filters that part again.
 */
export async function readAllFromEsdb(
  client: KurrentDBClient,
  options: ReadAllOptions,
): Promise<ReadAllPage> {
  const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
  const visibility = new StreamVisibility(client, Date.now());
  const found: RecordedEvent[] = [];
  let floor: Position | undefined = options.after;
  while (found.length < limit) {
    const fromPosition = floor === undefined ? kurrent().START : decodeEsdbPosition(floor);
    const page = await collect(client.readAll({ fromPosition, maxCount: PAGE_SIZE }));
    const events = page.flatMap((resolved) => (resolved.event === undefined ? [] : [resolved.event]));
    for (const event of events) {
      if (!(await isWanted(event, floor, options.streamPrefixes, visibility))) continue;
      found.push(toRecordedEvent(event));
      if (found.length >= limit) return { events: found, scannedTo: found.at(-1)!.position };
    }
    const last = events.at(-1);
    if (last !== undefined) floor = later(floor, encodeEsdbPosition(last.position));
    if (page.length < PAGE_SIZE || last === undefined) break;
  }
  return { events: found, scannedTo: floor };
}

function later(a: Position | undefined, b: Position): Position {
  return a === undefined || comparePositions(b, a) > 0 ? b : a;
}

async function isWanted(
  event: AllStreamRecordedEvent,
  floor: Position | undefined,
  prefixes: readonly string[] | undefined,
  visibility: StreamVisibility,
): Promise<boolean> {
  if (floor !== undefined && comparePositions(encodeEsdbPosition(event.position), floor) <= 0) return false;
  if (!isApplicationEvent(event) || !matchesPrefixes(event.streamId, prefixes)) return false;
  return visibility.isVisible(event);
}
