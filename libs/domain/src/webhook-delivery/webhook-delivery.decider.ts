import { type Decider } from '@svc/contract';
import { type WebhookDeliveryCommand } from './webhook-delivery.commands';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { initialWebhookDeliveryState, type WebhookDeliveryState } from './webhook-delivery.state';
import { evolveWebhookDelivery } from './evolve-webhook-delivery';
import { decideWebhookDelivery } from './decide-webhook-delivery';

/** `webhook-<attemptId>`: the attempt's webhook delivery stream id. */
export const webhookStreamId = (attemptId: string) => `webhook-${attemptId}`;

/** The webhook delivery stream's rules, as the command seam runs them (handleCommand, aggregateStream). */
export const webhookDeliveryDecider: Decider<
  WebhookDeliveryState,
  WebhookDeliveryCommand,
  WebhookDeliveryEvent
> = {
  initialState: initialWebhookDeliveryState,
  evolve: evolveWebhookDelivery,
  decide: decideWebhookDelivery,
};
