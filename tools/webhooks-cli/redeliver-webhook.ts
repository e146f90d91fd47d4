import { randomUUID } from 'node:crypto';
import { findEntryStatus } from './find-entry-status';
import { type EventStore } from '@svc/event-store';
import { decideWebhooks } from '@svc/webhooks';

export interface RedeliveryOutcome {
  appended: boolean;
  /** The entry's status after the request (queued when the redelivery was appended). */
  status: string | undefined;
}

/**
 * Appends a RequestRedelivery for one event. Refusals (still pending, unknown event) throw
 * WebhookDeliveryRefusedError from the decider.
 */
export async function redeliverWebhook(
  store: EventStore,
  request: { attemptId: string; eventId: string; requestedBy: string; now: number },
): Promise<RedeliveryOutcome> {
  const { attemptId, eventId, requestedBy, now } = request;
  // Each operator request is a new step: two requests (after the first pass ended again) must both append.
  const events = await decideWebhooks(store, attemptId, `redeliver:${eventId}:${randomUUID()}`, {
    type: 'RequestRedelivery',
    data: { eventId, now, requestedBy },
  });
  return { appended: events.length > 0, status: await findEntryStatus(store, attemptId, eventId) };
}
