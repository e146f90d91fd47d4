import { type WebhookEventKind } from '@svc/contract';
import { type DeliveryResult, type WebhookDeliveryCommand } from './webhook-delivery.commands';
import { type WebhookDeliveryEvent, type WebhookStreamEvent } from './webhook-delivery.events';
import { type WebhookDeliveryState } from './webhook-delivery.state';
import { evolveWebhookDelivery } from './evolve-webhook-delivery';
import { webhookDeliveryDecider } from './webhook-delivery.decider';
import { initialWebhookDeliveryState } from './webhook-delivery.state';

/** Test fixture: the webhook stream of attempt at_1; events ev-1 (wallet_submitted) and ev-2 (settled). */
export const T0 = 1_000_000;
export const ATTEMPT_ID = 'at_1';
export const PARTNER_ID = 'partner_1';
/** random = 0.5 puts the jitter factor at exactly 1. */
export const NO_JITTER = 0.5;

/** The webhook delivery decider, as deciderSpec takes it. */
export const webhookDeliveryUnderTest = webhookDeliveryDecider;

export const fold = (events: WebhookStreamEvent[]): WebhookDeliveryState =>
  events.reduce(evolveWebhookDelivery, initialWebhookDeliveryState);

const lifecycle: Record<string, { event: WebhookEventKind; lifecycleRevision: number; occurredAt: number }> =
  {
    'ev-1': { event: 'wallet_submitted', lifecycleRevision: 3, occurredAt: T0 - 2_000 },
    'ev-2': { event: 'settled', lifecycleRevision: 9, occurredAt: T0 - 1_000 },
    'ev-3': { event: 'failed', lifecycleRevision: 12, occurredAt: T0 - 500 },
  };
const facts = (eventId: string) => {
  const known = lifecycle[eventId];
  if (!known) throw new Error(`the fixture has no lifecycle event ${eventId}`);
  return known;
};

// Events, as the stream holds them.
export const queued = (eventId: string, queuedAt = T0): WebhookDeliveryEvent => ({
  type: 'WebhookQueued',
  data: { eventId, ...facts(eventId), attemptId: ATTEMPT_ID, partnerId: PARTNER_ID, queuedAt },
});
export const attempted = (
  eventId: string,
  attempt: number,
  at: number,
  nextAttemptAt: number,
  httpStatus: number | null = 503,
  error = 'HTTP 503',
): WebhookDeliveryEvent => ({
  type: 'WebhookAttempted',
  data: { eventId, attempt, at, httpStatus, error, nextAttemptAt },
});
export const delivered = (
  eventId: string,
  attempt: number,
  at: number,
  httpStatus = 200,
): WebhookDeliveryEvent => ({
  type: 'WebhookDelivered',
  data: { eventId, attempt, at, httpStatus },
});
export const abandoned = (
  eventId: string,
  attempt: number,
  at: number,
  reason: string,
  httpStatus: number | null,
): WebhookDeliveryEvent => ({ type: 'WebhookAbandoned', data: { eventId, attempt, at, reason, httpStatus } });
export const redeliveryRequested = (
  eventId: string,
  at: number,
  requestedBy = 'ops@example',
): WebhookDeliveryEvent => ({
  type: 'WebhookRedeliveryRequested',
  data: { eventId, at, requestedBy },
});

export const retryRequested = (
  eventId: string,
  at: number,
  requestedBy = 'ops@example',
): WebhookDeliveryEvent => ({
  type: 'WebhookRetryRequested',
  data: { eventId, at, requestedBy },
});

// Commands.
export const queue = (eventId: string, now = T0, attemptId = ATTEMPT_ID): WebhookDeliveryCommand => ({
  type: 'QueueWebhook',
  data: { eventId, ...facts(eventId), attemptId, partnerId: PARTNER_ID, now },
});
export const record = (
  eventId: string,
  now: number,
  result: DeliveryResult,
  random = NO_JITTER,
): WebhookDeliveryCommand => ({ type: 'RecordDeliveryResult', data: { eventId, now, random, result } });
export const redeliver = (
  eventId: string,
  now: number,
  requestedBy = 'ops@example',
): WebhookDeliveryCommand => ({
  type: 'RequestRedelivery',
  data: { eventId, now, requestedBy },
});

export const recover = (
  from: number,
  to: number,
  now: number,
  requestedBy = 'partner',
): WebhookDeliveryCommand => ({
  type: 'RequestRecovery',
  data: { from, to, now, requestedBy },
});

/** What the partner's control plane asks: capped per event and hour. */
export const redeliverCapped = (
  eventId: string,
  now: number,
  requestedBy = 'partner',
): WebhookDeliveryCommand => ({
  type: 'RequestRedelivery',
  data: { eventId, now, requestedBy, capped: true },
});
export const recoverCapped = (
  from: number,
  to: number,
  now: number,
  requestedBy = 'partner',
): WebhookDeliveryCommand => ({
  type: 'RequestRecovery',
  data: { from, to, now, requestedBy, capped: true },
});

/** The history compaction, with a retention of 30 days unless said otherwise. */
export const RETENTION_MS = 30 * 86_400_000;
export const compact = (
  now: number,
  queuedPositions: Record<string, string> = {},
  retentionMs = RETENTION_MS,
): WebhookDeliveryCommand => ({
  type: 'CompactWebhookHistory',
  data: { now, retentionMs, queuedPositions },
});

// Results, as the dispatcher classifies them.
export const ok = (status = 200): DeliveryResult => ({ kind: 'success', status });
export const gone: DeliveryResult = { kind: 'gone', status: 410 };
export const failed = (
  status: number | null = 503,
  retryAfterMs: number | null = null,
  error = status === null ? 'timeout' : `HTTP ${status}`,
): DeliveryResult => ({ kind: 'failure', status, error, retryAfterMs });
