import { type WebhookDeliveryCommand } from './webhook-delivery.commands';
import { type WebhookStreamEvent } from './webhook-delivery.events';
import { type WebhookDeliveryState } from './webhook-delivery.state';
import { queueWebhook } from './queue-webhook';
import { recordDeliveryResult } from './record-delivery-result';
import { requestRecovery, requestRedelivery } from './request-redelivery';
import { compactWebhookHistory } from './compact-webhook-history';

/**
 * The webhook delivery decider: the events a command appends to `webhook-<attemptId>` ([] when it changes
 * nothing). Refusals throw WebhookDeliveryRefusedError; a random outside [0, 1) throws WebhookDeliveryInputError.
 */
export function decideWebhookDelivery(
  command: WebhookDeliveryCommand,
  state: WebhookDeliveryState,
): WebhookStreamEvent[] {
  switch (command.type) {
    case 'QueueWebhook':
      return queueWebhook(state, command.data);
    case 'RecordDeliveryResult':
      return recordDeliveryResult(state, command.data);
    case 'RequestRedelivery':
      return requestRedelivery(state, command.data);
    case 'RequestRecovery':
      return requestRecovery(state, command.data);
    case 'CompactWebhookHistory':
      return compactWebhookHistory(state, command.data);
  }
}
