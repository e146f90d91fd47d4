import { type WebhookEventKind } from '@svc/contract';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { initialWebhookDeliveryState, queueEntries, type WebhookEntryStatus } from './webhook-delivery.state';
import { evolveWebhookDelivery } from './evolve-webhook-delivery';

/** One try of a webhook: when it ended, the HTTP status (null: no response), how long it took, what it did. */
export interface WebhookDeliveryTry {
  at: number;
  statusCode: number | null;
  /** null for a try recorded before latencies were. */
  latencyMs: number | null;
  outcome: 'delivered' | 'failed' | 'abandoned';
}

/** A lifecycle event of the attempt as its webhook stream knows it: where it stands and every try of it. */
export interface WebhookEventHistory {
  eventId: string;
  event: WebhookEventKind;
  attemptId: string;
  partnerId: string;
  lifecycleRevision: number;
  occurredAt: number;
  status: WebhookEntryStatus;
  nextAttemptAt: number | null;
  /** Every try of every pass (a redelivery adds a pass), oldest first. */
  deliveries: WebhookDeliveryTry[];
}

/** Every event of one webhook stream with its tries, in lifecycle order. */
export function webhookEventHistories(events: readonly WebhookDeliveryEvent[]): WebhookEventHistory[] {
  const state = events.reduce(evolveWebhookDelivery, initialWebhookDeliveryState);
  if (state.status === 'empty') return [];
  const tries = new Map<string, WebhookDeliveryTry[]>();
  const add = (eventId: string, delivery: WebhookDeliveryTry) =>
    tries.set(eventId, [...(tries.get(eventId) ?? []), delivery]);
  for (const e of events) {
    const latencyMs = 'latencyMs' in e.data ? (e.data.latencyMs ?? null) : null;
    if (e.type === 'WebhookAttempted')
      add(e.data.eventId, { at: e.data.at, statusCode: e.data.httpStatus, latencyMs, outcome: 'failed' });
    else if (e.type === 'WebhookDelivered')
      add(e.data.eventId, { at: e.data.at, statusCode: e.data.httpStatus, latencyMs, outcome: 'delivered' });
    else if (e.type === 'WebhookAbandoned')
      add(e.data.eventId, { at: e.data.at, statusCode: e.data.httpStatus, latencyMs, outcome: 'abandoned' });
  }
  return [...queueEntries(state)]
    .sort((a, b) => a.lifecycleRevision - b.lifecycleRevision)
    .map((entry) => ({
      eventId: entry.eventId,
      event: entry.event,
      attemptId: state.attemptId,
      partnerId: state.partnerId,
      lifecycleRevision: entry.lifecycleRevision,
      occurredAt: entry.occurredAt,
      status: entry.status,
      nextAttemptAt: entry.nextAttemptAt,
      deliveries: tries.get(entry.eventId) ?? [],
    }));
}
