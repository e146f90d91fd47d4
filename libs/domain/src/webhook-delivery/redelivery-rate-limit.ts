import { WEBHOOK_CONTROL_LIMITS } from '@svc/contract';
import { type WebhookQueueEntry } from './webhook-delivery.state';

/** The redelivery cap: at most `requests` redeliveries (or retries brought forward) of one event per `windowMs`. */
export const REDELIVERY_WINDOW = {
  requests: WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour,
  windowMs: 3_600_000,
} as const;

/**
 * When a capped redelivery of the event is allowed: null when it is now, else the time the oldest of the latest
 * REDELIVERY_WINDOW.requests requests leaves the window. Pure: decided from the stream's own events.
 */
export function redeliveryAllowedAt(entry: WebhookQueueEntry, now: number): number | null {
  if (entry.requestedAt.length < REDELIVERY_WINDOW.requests) return null;
  const allowedAt = entry.requestedAt[0] + REDELIVERY_WINDOW.windowMs;
  return allowedAt <= now ? null : allowedAt;
}
