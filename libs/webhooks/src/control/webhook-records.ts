import { type WebhookEventRecord } from '@svc/contract';
import {
  webhookDeliveryDecider,
  type WebhookStreamEvent,
  type WebhookEventHistory,
  webhookStreamId,
} from '@svc/domain';
import { type EventStore } from '@svc/event-store';

/** The event as the control plane lists it (times in ISO 8601). */
export function record(history: WebhookEventHistory): WebhookEventRecord {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    eventId: history.eventId,
    event: history.event,
    attemptId: history.attemptId,
    occurredAt: iso(history.occurredAt),
    status: history.status,
    nextAttemptAt: history.nextAttemptAt === null ? null : iso(history.nextAttemptAt),
    deliveries: history.deliveries.map((d) => ({ ...d, at: iso(d.at) })),
    deliveryCount: history.deliveryCount,
    deliveriesOmitted: history.deliveriesOmitted,
    historyCompacted: history.historyCompacted,
    firstDeliveryAt: history.firstDeliveryAt === null ? null : iso(history.firstDeliveryAt),
    lastDeliveryAt: history.lastDeliveryAt === null ? null : iso(history.lastDeliveryAt),
  };
}

/**
 * The attempt's webhook delivery events, as the decider reads them: those its guard recognises (a known type with the
 * shape it folds); a type of a newer build or a malformed event is left out of the listing, never cast.
 */
export async function readWebhookStream(store: EventStore, attemptId: string): Promise<WebhookStreamEvent[]> {
  return (await store.readStream(webhookStreamId(attemptId))).flatMap((e) => {
    const event = { type: e.type, data: e.data };
    return webhookDeliveryDecider.isEvent?.(event) ? [event] : [];
  });
}
