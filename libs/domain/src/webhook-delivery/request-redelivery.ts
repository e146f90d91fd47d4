import { type RequestRecovery, type RequestRedelivery } from './webhook-delivery.commands';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { WebhookDeliveryRefusedError } from './webhook-delivery-refused.error';
import {
  findEntry,
  isPending,
  queueEntries,
  type WebhookDeliveryState,
  type WebhookQueueEntry,
} from './webhook-delivery.state';
import { redeliveryAllowedAt } from './redelivery-rate-limit';

/**
 * Send an event that ended (delivered or abandoned) again, as a new pass at the end of the queue; or, for an event
 * waiting for its next retry, try it now (same pass: its tries so far still count). Nothing to do when that retry
 * is already due. An event queued and not tried yet goes out in its turn: refused. Capped (the partner's control
 * plane): refused beyond REDELIVERY_WINDOW.requests per event and hour.
 */
export function requestRedelivery(
  state: WebhookDeliveryState,
  command: RequestRedelivery['data'],
): WebhookDeliveryEvent[] {
  const { eventId, now, requestedBy, capped = false } = command;
  const entry = findEntry(state, eventId);
  if (!entry) throw new WebhookDeliveryRefusedError('webhook_event_unknown', `no webhook event ${eventId}`);
  if (entry.status === 'retrying') {
    if (entry.nextAttemptAt !== null && entry.nextAttemptAt <= now) return [];
    if (capped) refuseOverCap(entry, now);
    return [{ type: 'WebhookRetryRequested', data: { eventId, at: now, requestedBy } }];
  }
  if (isPending(entry)) {
    throw new WebhookDeliveryRefusedError(
      'webhook_delivery_pending',
      `webhook event ${eventId} is still ${entry.status}`,
    );
  }
  if (capped) refuseOverCap(entry, now);
  return [{ type: 'WebhookRedeliveryRequested', data: { eventId, at: now, requestedBy } }];
}

function refuseOverCap(entry: WebhookQueueEntry, now: number): void {
  const allowedAt = redeliveryAllowedAt(entry, now);
  if (allowedAt === null) return;
  throw new WebhookDeliveryRefusedError(
    'webhook_redelivery_rate_limited',
    `webhook event ${entry.eventId} was sent again as often as an hour allows; next at ${new Date(allowedAt).toISOString()}`,
    allowedAt,
  );
}

/**
 * A new pass for every ended event of the attempt that occurred in [from, to), in lifecycle order (the order of
 * the attempt's stream, whatever order earlier redeliveries left the queue in), so they arrive as the originals
 * did. Pending events are not touched: they are on their way.
 */
export function requestRecovery(
  state: WebhookDeliveryState,
  command: RequestRecovery['data'],
): WebhookDeliveryEvent[] {
  const { from, to, now, requestedBy, capped = false } = command;
  return queueEntries(state)
    .filter((entry) => !isPending(entry) && entry.occurredAt >= from && entry.occurredAt < to)
    .filter((entry) => !capped || redeliveryAllowedAt(entry, now) === null)
    .sort((a, b) => a.lifecycleRevision - b.lifecycleRevision)
    .map((entry) => ({
      type: 'WebhookRedeliveryRequested',
      data: { eventId: entry.eventId, at: now, requestedBy },
    }));
}
