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
  /** The cursor's position: where the next page (or a later poll) reads on from. */
  position: Position | undefined;
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

/** The partner's WebhookQueued in `event`, or null (pure: what the index records of one event of the log). */
export function queuedWebhookOf(
  event: IndexedEvent,
): { partnerId: string; eventId: string; attemptId: string; occurredAt: number | null } | null {
  if (event.type !== 'WebhookQueued') return null;
  const { partnerId, attemptId, eventId, occurredAt } = event.data;
  if (typeof partnerId !== 'string' || typeof attemptId !== 'string' || typeof eventId !== 'string')
    return null;
  const at = typeof occurredAt === 'number' && !Number.isNaN(occurredAt) ? occurredAt : null;
  return { partnerId, eventId, attemptId, occurredAt: at };
}
