import { type QueueWebhook } from './webhook-delivery.commands';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { WebhookDeliveryRefusedError } from './webhook-delivery-refused.error';
import { findEntry, type WebhookDeliveryState } from './webhook-delivery.state';

/** Queue a lifecycle event once: the relay delivers at-least-once, so a known eventId is nothing new. */
export function queueWebhook(
  state: WebhookDeliveryState,
  command: QueueWebhook['data'],
): WebhookDeliveryEvent[] {
  const { now, ...data } = command;
  if (
    state.status === 'active' &&
    (state.attemptId !== data.attemptId || state.partnerId !== data.partnerId)
  ) {
    throw new WebhookDeliveryRefusedError(
      'webhook_stream_mismatch',
      `event ${data.eventId} of attempt ${data.attemptId} (partner ${data.partnerId}) does not belong to the webhook stream of attempt ${state.attemptId} (partner ${state.partnerId})`,
    );
  }
  if (findEntry(state, data.eventId)) return [];
  return [{ type: 'WebhookQueued', data: { ...data, queuedAt: now } }];
}
