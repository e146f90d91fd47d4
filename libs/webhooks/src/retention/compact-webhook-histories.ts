import { randomUUID } from 'node:crypto';
import { WEBHOOK_STREAM_PREFIX } from '@svc/domain';
import {
  type EventStore,
  laterOf,
  MalformedEventError,
  type Position,
  type StreamTruncation,
} from '@svc/event-store';
import { readWorkerCheckpoint, writeWorkerCheckpoint } from '@svc/leases';
import { compactWebhookStream, type StreamCompaction } from './compact-webhook-stream';

/** Names the compaction's lease (`lease-webhook-history-compaction-0`) and checkpoint streams. */
export const COMPACTION_GROUP = 'webhook-history-compaction';

/**
 * How much older than the retention an event must be before the pass looks at its stream: the decider goes by the
 * times the events carry, the pass by the time the store recorded them, and the two may differ by clock skew between
 * processes. A stream the pass looks at too early would be passed over for good (its checkpoint moves past it).
 */
export const COMPACTION_MARGIN_MS = 3_600_000;

/** Events read from the log per pass, at most. */
const PAGE_SIZE = 1_000;

export interface CompactionPassOptions {
  now: number;
  retentionMs: number;
  /** Streams looked at, at most. */
  maxStreams: number;
}

/** What one pass did, and where the next goes on from. */
export interface CompactionReport {
  /** Streams looked at, by what became of them. */
  streams: Record<StreamCompaction | 'malformed', number>;
  /** Where the next pass reads on from. */
  position: Position | undefined;
  /** Nothing older is left to look at before this time (epoch ms); null: more is left now. */
  idleUntil: number | null;
}

/** What the checkpoint keeps besides the position: when there is work again, for the retention it was set with. */
interface CompactionState {
  idleUntil: number | null;
  retentionMs: number | null;
}

/**
 * One bounded pass of the webhook history compaction, resumable from its checkpoint (`checkpoint-<group>`): reads the
 * `webhook-` streams' events in log order from where the last pass stopped, takes the streams of the events recorded
 * more than the retention (plus COMPACTION_MARGIN_MS) ago, at most `maxStreams` of them, and compacts each
 * (compactWebhookStream: only streams whose every event ended and whose newest event is older than the retention).
 * It stops at the first younger event and records when the next pass has something to do. The checkpoint moves only
 * after the streams it covers were handled, so a pass that fails or dies is done again by the next; two passes at once
 * (a stalled instance beside the lease holder) do the same work twice and record it once.
 *
 * A stream is looked at when the pass reaches its events, so a stream still retrying when first seen is looked at again
 * when the pass reaches its later events, a summary's included.
 */
export async function compactWebhookHistories(
  store: EventStore & StreamTruncation,
  { now, retentionMs, maxStreams }: CompactionPassOptions,
): Promise<CompactionReport> {
  const streams: CompactionReport['streams'] = {
    compacted: 0,
    truncated: 0,
    kept: 0,
    unknown_types: 0,
    malformed: 0,
  };
  const checkpoint = await readWorkerCheckpoint(store, COMPACTION_GROUP);
  const saved = stateOf(checkpoint?.state);
  const from = checkpoint?.position ?? undefined;
  if (saved.idleUntil !== null && saved.retentionMs === retentionMs && now < saved.idleUntil)
    return { streams, position: from, idleUntil: saved.idleUntil };

  const horizon = now - retentionMs - COMPACTION_MARGIN_MS;
  const page = await store.readAllPage({
    after: from,
    streamPrefixes: [WEBHOOK_STREAM_PREFIX],
    maxCount: PAGE_SIZE,
  });
  const taken = new Set<string>();
  let position = from;
  let idleUntil: number | null = null;
  let stopped = false;
  for (const event of page.events) {
    const recordedAt = Date.parse(event.recordedAt);
    if (recordedAt > horizon) {
      idleUntil = recordedAt + retentionMs + COMPACTION_MARGIN_MS;
      stopped = true;
      break;
    }
    if (!taken.has(event.streamId) && taken.size >= maxStreams) {
      stopped = true;
      break;
    }
    taken.add(event.streamId);
    position = event.position;
  }
  // Every webhook event up to the log's head was old enough and taken: the next pass reads on after the head, where
  // every event is recorded from now on.
  if (!stopped && page.events.length < PAGE_SIZE) {
    position = laterOf(position, page.scannedTo);
    idleUntil = now + retentionMs + COMPACTION_MARGIN_MS;
  }

  for (const streamId of taken) {
    try {
      streams[await compactWebhookStream(store, streamId, { now, retentionMs })]++;
    } catch (error) {
      // A stream the decider cannot fold is left whole (the fold logged it); the others go on.
      if (!(error instanceof MalformedEventError)) throw error;
      streams.malformed++;
    }
  }
  if (position !== from || idleUntil !== saved.idleUntil || retentionMs !== saved.retentionMs) {
    const state: CompactionState = { idleUntil, retentionMs };
    await writeWorkerCheckpoint(store, COMPACTION_GROUP, { position: position ?? null, state }, randomUUID());
  }
  return { streams, position, idleUntil };
}

function stateOf(state: unknown): CompactionState {
  const { idleUntil, retentionMs } = (state ?? {}) as Partial<Record<keyof CompactionState, unknown>>;
  return {
    idleUntil: typeof idleUntil === 'number' ? idleUntil : null,
    retentionMs: typeof retentionMs === 'number' ? retentionMs : null,
  };
}
