import { type Decider } from '@svc/contract';
import { type WebhookDeliveryCommand } from './webhook-delivery.commands';
import { type WebhookStreamEvent, webhookStreamEventShapes } from './webhook-delivery.events';
import { initialWebhookDeliveryState, type WebhookDeliveryState } from './webhook-delivery.state';
import { evolveWebhookDelivery } from './evolve-webhook-delivery';
import { decideWebhookDelivery } from './decide-webhook-delivery';

/** `webhook-<attemptId>`: the attempt's webhook delivery stream id. */
/** Every webhook delivery stream's id starts with this. */
export const WEBHOOK_STREAM_PREFIX = 'webhook-';
export const webhookStreamId = (attemptId: string) => `${WEBHOOK_STREAM_PREFIX}${attemptId}`;
/** The attempt a webhook delivery stream belongs to. */
export const attemptIdOfWebhookStream = (streamId: string) => streamId.slice(WEBHOOK_STREAM_PREFIX.length);

/** The webhook delivery stream's rules, as the command seam runs them (handleCommand, aggregateStream). */
export const webhookDeliveryDecider: Decider<
  WebhookDeliveryState,
  WebhookDeliveryCommand,
  WebhookStreamEvent
> = {
  name: 'webhook-delivery',
  initialState: initialWebhookDeliveryState,
  evolve: evolveWebhookDelivery,
  decide: decideWebhookDelivery,
  ...webhookStreamEventShapes,
};
