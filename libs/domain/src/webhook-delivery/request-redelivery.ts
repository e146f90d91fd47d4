import { type RequestRedelivery } from './webhook-delivery.commands';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { WebhookDeliveryRefusedError } from './webhook-delivery-refused.error';
import { findEntry, isPending, type WebhookDeliveryState } from './webhook-delivery.state';

/** Send an event that ended (delivered or abandoned) again, as a new pass at the end of the queue. */
export function requestRedelivery(
  state: WebhookDeliveryState,
  command: RequestRedelivery['data'],
): WebhookDeliveryEvent[] {
  const { eventId, now, requestedBy } = command;
  const entry = findEntry(state, eventId);
  if (!entry) throw new WebhookDeliveryRefusedError('webhook_event_unknown', `no webhook event ${eventId}`);
  if (isPending(entry)) {
    throw new WebhookDeliveryRefusedError(
      'webhook_delivery_pending',
      `webhook event ${eventId} is still ${entry.status}`,
    );
  }
  return [{ type: 'WebhookRedeliveryRequested', data: { eventId, at: now, requestedBy } }];
}
