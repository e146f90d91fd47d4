import { type WebhookEventKind, WEBHOOK_CONTROL_LIMITS } from '@svc/contract';
import { type WebhookStreamEvent } from './webhook-delivery.events';
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

/** A lifecycle event of the attempt as its webhook stream knows it: where it stands and its latest tries. */
export interface WebhookEventHistory {
  eventId: string;
  event: WebhookEventKind;
  attemptId: string;
  partnerId: string;
  lifecycleRevision: number;
  occurredAt: number;
  status: WebhookEntryStatus;
  nextAttemptAt: number | null;
  /** The latest tries of every pass (a redelivery adds a pass), at most `maxTries`, oldest first. */
  deliveries: WebhookDeliveryTry[];
  /** Every try ever recorded for the event. */
  deliveryCount: number;
  /** Tries counted in `deliveryCount` and not in `deliveries` (older than the listed ones, or compacted). */
  deliveriesOmitted: number;
  /** Its tries before a compaction are counted, no longer listed. */
  historyCompacted: boolean;
  /** When the first and the last try ended; null before the first. */
  firstDeliveryAt: number | null;
  lastDeliveryAt: number | null;
}

/**
 * Every event of one webhook stream with its latest tries, in lifecycle order. One pass over the stream, keeping at
 * most `maxTries` tries per event: linear in the stream, and the answer's size is bounded whatever the stream holds
 * (security review N-L8).
 */
export function webhookEventHistories(
  events: readonly WebhookStreamEvent[],
  maxTries: number = WEBHOOK_CONTROL_LIMITS.maxDeliveriesListedPerEvent,
): WebhookEventHistory[] {
  const state = events.reduce(evolveWebhookDelivery, initialWebhookDeliveryState);
  if (state.status === 'empty') return [];
  const latest = new Map<string, WebhookDeliveryTry[]>();
  const add = (eventId: string, delivery: WebhookDeliveryTry) => {
    let tries = latest.get(eventId);
    if (tries === undefined) latest.set(eventId, (tries = []));
    tries.push(delivery);
    if (tries.length > maxTries) tries.shift();
  };
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
    .map((entry) => {
      const deliveries = latest.get(entry.eventId) ?? [];
      return {
        eventId: entry.eventId,
        event: entry.event,
        attemptId: state.attemptId,
        partnerId: state.partnerId,
        lifecycleRevision: entry.lifecycleRevision,
        occurredAt: entry.occurredAt,
        status: entry.status,
        nextAttemptAt: entry.nextAttemptAt,
        deliveries,
        deliveryCount: entry.deliveries,
        deliveriesOmitted: entry.deliveries - deliveries.length,
        historyCompacted: entry.compacted,
        firstDeliveryAt: entry.firstTryAt,
        lastDeliveryAt: entry.lastTryAt,
      };
    });
}
