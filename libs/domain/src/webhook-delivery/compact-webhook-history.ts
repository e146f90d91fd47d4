import { WEBHOOK_CONTROL_LIMITS } from '@svc/contract';
import { type CompactWebhookHistory } from './webhook-delivery.commands';
import {
  type CompactedWebhookEvent,
  type WebhookStreamEvent,
  type WebhookHistoryCompactedData,
} from './webhook-delivery.events';
import { WebhookDeliveryInputError } from './webhook-delivery-input.error';
import { type WebhookDeliveryState, type WebhookQueueEntry } from './webhook-delivery.state';

/** The shortest retention a compaction takes: what the control plane promises partners. */
export const MIN_WEBHOOK_RETENTION_MS = WEBHOOK_CONTROL_LIMITS.retentionDays * 86_400_000;

type Ended = WebhookQueueEntry & { status: CompactedWebhookEvent['status'] };
const ended = (entry: WebhookQueueEntry): entry is Ended =>
  entry.status === 'delivered' || entry.status === 'abandoned';

/**
 * A summary of the stream's history, once there is nothing left to send and nothing happened for the retention:
 * every event of the queue delivered or abandoned, the newest event older than `now - retentionMs`, and something
 * happened since the last summary. Each event keeps where it ended and its counts (tries, first and last), so it stays
 * listed, redeliverable and recoverable; its tries are no longer listed once the stream is truncated before the
 * summary. [] when there is nothing to compact (so a second run, or a second instance, appends nothing).
 */
export function compactWebhookHistory(
  state: WebhookDeliveryState,
  command: CompactWebhookHistory['data'],
): WebhookStreamEvent[] {
  const { now, retentionMs, queuedPositions } = command;
  if (!(retentionMs >= MIN_WEBHOOK_RETENTION_MS))
    throw new WebhookDeliveryInputError(
      `retention ${retentionMs} ms is shorter than ${MIN_WEBHOOK_RETENTION_MS} ms`,
    );
  if (state.status !== 'active' || !state.changedSinceCompaction) return [];
  if (state.lastActivityAt > now - retentionMs) return [];
  const entries = state.entries;
  if (!entries.every(ended)) return [];
  const events = entries.map((entry): CompactedWebhookEvent => {
    const position = queuedPositions[entry.eventId];
    return {
      eventId: entry.eventId,
      event: entry.event,
      lifecycleRevision: entry.lifecycleRevision,
      occurredAt: entry.occurredAt,
      status: entry.status,
      attempts: entry.attempts,
      lastError: entry.lastError,
      lastStatus: entry.lastStatus,
      deliveries: entry.deliveries,
      firstTryAt: entry.firstTryAt,
      lastTryAt: entry.lastTryAt,
      ...(position === undefined ? {} : { queuedPosition: position }),
    };
  });
  const { attemptId, partnerId, lastActivityAt } = state;
  return [
    { type: 'WebhookHistoryCompacted', data: { attemptId, partnerId, at: now, lastActivityAt, events } },
  ];
}

/**
 * The queue a summary stands for (what evolve folds a WebhookHistoryCompacted into, whatever came before it: the
 * stream is truncated before it, so it may be the first event read). Nothing changed since it.
 */
export function compactedState(data: WebhookHistoryCompactedData): WebhookDeliveryState {
  return {
    status: 'active',
    attemptId: data.attemptId,
    partnerId: data.partnerId,
    lastActivityAt: data.lastActivityAt,
    changedSinceCompaction: false,
    entries: data.events.map((e) => ({
      eventId: e.eventId,
      event: e.event,
      lifecycleRevision: e.lifecycleRevision,
      occurredAt: e.occurredAt,
      status: e.status,
      attempts: e.attempts,
      nextAttemptAt: null,
      lastError: e.lastError,
      lastStatus: e.lastStatus,
      deliveries: e.deliveries,
      firstTryAt: e.firstTryAt,
      lastTryAt: e.lastTryAt,
      // Every request is older than the retention, far outside the redelivery cap's hour.
      requestedAt: [],
      compacted: true,
    })),
  };
}
