import { attemptIdOfStream, lifecycleOccurredAt, webhookEventOf } from '@svc/domain';
import { type RecordedEvent } from '@svc/event-store';
import { type LifecycleMessage } from '@svc/messaging';

/**
 * The lifecycle message a stored attempt event makes, or null for an event that makes none: what the outbox relay
 * publishes, and what the dispatcher checks a message from the bus against before it queues (and later signs) a
 * webhook for it (security review N-M8).
 */
export function lifecycleMessageOf(event: RecordedEvent): LifecycleMessage | null {
  const kind = webhookEventOf(event.type);
  if (!kind) return null;
  return {
    eventId: event.id,
    event: kind,
    attemptId: attemptIdOfStream(event.streamId),
    revision: event.revision,
    occurredAt: lifecycleOccurredAt(event.data, event.recordedAt),
  };
}

/** Whether a message from the bus is exactly what the stored event makes. */
export function sameLifecycleMessage(claimed: LifecycleMessage, stored: LifecycleMessage | null): boolean {
  return (
    stored !== null &&
    claimed.eventId === stored.eventId &&
    claimed.event === stored.event &&
    claimed.attemptId === stored.attemptId &&
    claimed.revision === stored.revision &&
    claimed.occurredAt === stored.occurredAt
  );
}
