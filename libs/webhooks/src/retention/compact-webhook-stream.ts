import { initialWebhookDeliveryState, webhookDeliveryDecider } from '@svc/domain';
import {
  type EventStore,
  foldStoredEvents,
  handleCommand,
  type RecordedEvent,
  type StreamTruncation,
} from '@svc/event-store';
import { queuedWebhooksOf } from '../control/webhook-queued';

/** What a compaction did to one webhook stream. */
export type StreamCompaction =
  /** Summarised now (and truncated before the summary). */
  | 'compacted'
  /** Summarised earlier, truncated now (a pass that stopped between the two, or another instance's summary). */
  | 'truncated'
  /** Nothing to do: an event still pending, activity within the retention, or nothing new since the last summary. */
  | 'kept'
  /** Holds an event type this build does not know (a newer build's): left whole, never truncated past it. */
  | 'unknown_types';

/**
 * Compacts one `webhook-<attemptId>` stream: the decider's CompactWebhookHistory decides on the stream as read (a
 * summary of every event, or nothing), appended at the revision read (a concurrent append makes it read and decide
 * again; a second instance doing the same appends nothing, its decision is already in the stream), then the stream is
 * truncated before its newest summary. Idempotent: run twice, or by two instances at once, it appends one summary.
 * Only ever a webhook stream: attempt streams are never truncated.
 */
export async function compactWebhookStream(
  store: EventStore & StreamTruncation,
  streamId: string,
  { now, retentionMs }: { now: number; retentionMs: number },
): Promise<StreamCompaction> {
  const recorded = await store.readStream(streamId);
  const known = webhookDeliveryDecider.knownEventTypes;
  if (known !== undefined && recorded.some((e) => !known.has(e.type))) return 'unknown_types';
  const last = recorded.at(-1);
  if (last === undefined) return 'kept';
  const state = foldStoredEvents(webhookDeliveryDecider, initialWebhookDeliveryState, recorded);
  const result = await handleCommand(
    store,
    streamId,
    webhookDeliveryDecider,
    {
      type: 'CompactWebhookHistory',
      data: { now, retentionMs, queuedPositions: queuedPositionsOf(recorded) },
    },
    { stepId: 'compact-webhook-history' },
    { state, revision: last.revision },
  );
  if (result.events.length > 0 && typeof result.revision === 'number') {
    await store.truncateStreamBefore(streamId, result.revision);
    return 'compacted';
  }
  // Nothing appended: a summary may stand already (an earlier pass, or another instance that just appended it).
  const current = result.revision === last.revision ? recorded : await store.readStream(streamId);
  const summaryAt = newestSummaryRevision(current);
  if (summaryAt === null || (current[0]?.revision ?? summaryAt) >= summaryAt) return 'kept';
  await store.truncateStreamBefore(streamId, summaryAt);
  return 'truncated';
}

/** Each event's WebhookQueued position: its own event's, or the one an earlier summary kept. */
function queuedPositionsOf(recorded: readonly RecordedEvent[]): Record<string, string> {
  const positions: Record<string, string> = {};
  for (const event of recorded)
    for (const queued of queuedWebhooksOf(event)) positions[queued.eventId] ??= queued.position;
  return positions;
}

function newestSummaryRevision(recorded: readonly RecordedEvent[]): number | null {
  for (let i = recorded.length - 1; i >= 0; i--)
    if (recorded[i].type === 'WebhookHistoryCompacted') return recorded[i].revision;
  return null;
}
