import { type WebhookEventKind } from '@svc/contract';

/**
 * What the outbox relay publishes on `attempt.lifecycle` (`Topic.attemptLifecycle`, keyed by attemptId) and the
 * webhook dispatcher consumes: a pointer, not a copy of state.
 */
export interface LifecycleMessage {
  /** The lifecycle event's id: it becomes the webhook's eventId, identical on every redelivery and replay. */
  eventId: string;
  event: WebhookEventKind;
  attemptId: string;
  /** Revision of the lifecycle event in attempt-<attemptId>: the payload is the snapshot as of it. */
  revision: number;
  occurredAt: number;
}
