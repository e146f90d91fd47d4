import { type RecordDeliveryResult } from './webhook-delivery.commands';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { WebhookDeliveryRefusedError } from './webhook-delivery-refused.error';
import {
  findEntry,
  queueHead,
  type WebhookDeliveryState,
  type WebhookQueueEntry,
} from './webhook-delivery.state';
import { MAX_DELIVERY_TRIES, retryDelayMs } from './retry-schedule';

/**
 * Record one try of the head event: delivered, abandoned (410 at once, or the last try failed), or a retry
 * scheduled at `now + max(jittered schedule delay, Retry-After)`.
 */
export function recordDeliveryResult(
  state: WebhookDeliveryState,
  command: RecordDeliveryResult['data'],
): WebhookDeliveryEvent[] {
  const { eventId, now, random, result } = command;
  const entry = inFlightHead(state, eventId, now);
  const attempt = entry.attempts + 1;
  const latency = command.latencyMs === undefined ? {} : { latencyMs: command.latencyMs };
  switch (result.kind) {
    case 'success':
      return [
        {
          type: 'WebhookDelivered',
          data: { eventId, attempt, at: now, httpStatus: result.status, ...latency },
        },
      ];
    case 'gone':
      return [
        {
          type: 'WebhookAbandoned',
          data: {
            eventId,
            attempt,
            at: now,
            reason: 'gone: the callback URL answered 410',
            httpStatus: 410,
            ...latency,
          },
        },
      ];
    case 'failure': {
      const { status: httpStatus, error, retryAfterMs } = result;
      if (attempt >= MAX_DELIVERY_TRIES) {
        const reason = `retries exhausted after ${attempt} tries: ${error}`;
        return [
          { type: 'WebhookAbandoned', data: { eventId, attempt, at: now, reason, httpStatus, ...latency } },
        ];
      }
      const nextAttemptAt = now + Math.max(retryDelayMs(attempt, random), retryAfterMs ?? 0);
      return [
        {
          type: 'WebhookAttempted',
          data: { eventId, attempt, at: now, httpStatus, error, nextAttemptAt, ...latency },
        },
      ];
    }
  }
}

function inFlightHead(state: WebhookDeliveryState, eventId: string, now: number): WebhookQueueEntry {
  const entry = findEntry(state, eventId);
  if (!entry) throw new WebhookDeliveryRefusedError('webhook_event_unknown', `no webhook event ${eventId}`);
  if (entry.status === 'delivered' || entry.status === 'abandoned') {
    throw new WebhookDeliveryRefusedError(
      'webhook_not_in_flight',
      `webhook event ${eventId} is ${entry.status}`,
    );
  }
  const head = queueHead(state);
  if (head !== entry) {
    throw new WebhookDeliveryRefusedError(
      'webhook_not_head',
      `webhook event ${eventId} waits behind ${head?.eventId ?? 'an earlier event'}`,
    );
  }
  if (entry.nextAttemptAt !== null && now < entry.nextAttemptAt) {
    throw new WebhookDeliveryRefusedError(
      'webhook_not_due',
      `webhook event ${eventId} is not due before ${entry.nextAttemptAt}`,
    );
  }
  return entry;
}
