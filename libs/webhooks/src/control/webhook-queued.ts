/** The control plane's index of the `webhook-` streams: what it records and answers (WebhookEventTable keeps it). */
import { type Position } from '@svc/event-store';

/** What the index keeps of one event of a `webhook-` stream (its type, data and global position). */
export interface IndexedEvent {
  type: string;
  data: Record<string, unknown>;
  position: Position;
}

/** One page of a partner's queued events after a position, and where the next page reads on from. */
export interface QueuedPage {
  found: { attemptId: string; eventId: string }[];
  hasMore: boolean;
  /**
   * The partner's event the next page (or a later poll) reads on after: what the cursor names. null: the partner has
   * no event up to there, the next page starts at the beginning.
   */
  lastEventId: string | null;
}

/** A queued event's place in the index's time order: when it occurred, then its log position. */
export interface QueuedAt {
  occurredAt: number;
  position: Position;
}

/** One page of attemptsQueuedBetween: its attempts, and where the next page reads on from (none: the range is done). */
export interface AttemptsPage {
  attempts: string[];
  next: QueuedAt | undefined;
}

/** One queued event as the index records it: whose, which, when it occurred, and its WebhookQueued's log position. */
export interface QueuedWebhook {
  partnerId: string;
  eventId: string;
  attemptId: string;
  occurredAt: number | null;
  position: Position;
}

/**
 * The queued events an event of a `webhook-` stream stands for (pure): a WebhookQueued its own, at its position; a
 * WebhookHistoryCompacted each event it summarises, at the position its WebhookQueued had (the stream is truncated
 * before the summary, so an index projected again from the log finds them there). [] for any other event.
 */
export function queuedWebhooksOf(event: IndexedEvent): QueuedWebhook[] {
  if (event.type === 'WebhookHistoryCompacted') {
    const { partnerId, attemptId, events } = event.data;
    if (typeof partnerId !== 'string' || typeof attemptId !== 'string' || !Array.isArray(events)) return [];
    return events.flatMap((summary: unknown) => {
      if (typeof summary !== 'object' || summary === null) return [];
      const { eventId, occurredAt, queuedPosition } = summary as Record<string, unknown>;
      if (typeof eventId !== 'string' || typeof queuedPosition !== 'string') return [];
      return [
        { partnerId, eventId, attemptId, occurredAt: timeOrNull(occurredAt), position: queuedPosition },
      ];
    });
  }
  const queued = queuedWebhookOf(event);
  return queued === null ? [] : [{ ...queued, position: event.position }];
}

function timeOrNull(value: unknown): number | null {
  return typeof value === 'number' && !Number.isNaN(value) ? value : null;
}

/** The partner's WebhookQueued in `event`, or null (pure: what the index records of one event of the log). */
export function queuedWebhookOf(
  event: IndexedEvent,
): { partnerId: string; eventId: string; attemptId: string; occurredAt: number | null } | null {
  if (event.type !== 'WebhookQueued') return null;
  const { partnerId, attemptId, eventId, occurredAt } = event.data;
  if (typeof partnerId !== 'string' || typeof attemptId !== 'string' || typeof eventId !== 'string')
    return null;
  return { partnerId, eventId, attemptId, occurredAt: timeOrNull(occurredAt) };
}
