import { API_VERSION, type WebhookEventKind, type WebhookEventPayload } from '@svc/contract';
import { type AttemptState } from '../attempt/attempt-record';
import { attemptSnapshot } from '../attempt/attempt-snapshot';
import { type ChainNames } from '../attempt/status-leg';

/** The facts of one lifecycle event that its webhook announces. */
export interface WebhookBodyMeta {
  eventId: string;
  event: WebhookEventKind;
  occurredAt: number;
}

/**
 * The webhook body: the attempt snapshot as of the lifecycle event (`state` folded up to and including it, not a
 * later state) plus the event's metadata, serialized once. The dispatcher signs and sends these bytes and the live
 * status stream sends the same ones; null for an attempt that does not exist.
 */
export function webhookBody(state: AttemptState, meta: WebhookBodyMeta, names: ChainNames): string | null {
  if (state.status === 'none') return null;
  const payload: WebhookEventPayload = {
    ...attemptSnapshot(state, names),
    apiVersion: API_VERSION,
    eventId: meta.eventId,
    event: meta.event,
    occurredAt: new Date(meta.occurredAt).toISOString(),
  };
  return JSON.stringify(payload);
}

/**
 * When a stored lifecycle event occurred (the webhook's `occurredAt`): its own `at`, else the time the store
 * recorded it. The outbox relay and the live status stream both take it from here, so they announce the same time.
 */
export function lifecycleOccurredAt(data: Record<string, unknown>, recordedAt: string): number {
  return typeof data['at'] === 'number' ? data['at'] : Date.parse(recordedAt);
}
