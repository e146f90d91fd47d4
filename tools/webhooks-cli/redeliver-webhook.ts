import { randomUUID } from 'node:crypto';
import { findEntryStatus } from './find-entry-status';
import { type EventStore } from '@svc/event-store';
import { decideWebhooks } from '@svc/webhooks';

export interface RedeliveryOutcome {
  appended: boolean;
  /** WebhookRedeliveryRequested (a new pass) or WebhookRetryRequested (a waiting retry is due now). */
  appendedType: string | null;
  /** The entry's status after the request (queued when the redelivery was appended). */
  status: string | undefined;
}

/**
 * Appends a RequestRedelivery for one event: a new pass for a delivered or abandoned event, the next try brought
 * forward to now for one waiting for its retry. Refusals (queued and not tried yet, unknown event) throw
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
  return {
    appended: events.length > 0,
    appendedType: events[0]?.type ?? null,
    status: await findEntryStatus(store, attemptId, eventId),
  };
}
