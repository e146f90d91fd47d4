export * from './webhook-delivery.events';
export * from './webhook-delivery.commands';
export {
  initialWebhookDeliveryState,
  type WebhookDeliveryState,
  type WebhookEntryStatus,
  type WebhookQueueEntry,
} from './webhook-delivery.state';
export * from './webhook-delivery-refused.error';
export * from './webhook-delivery-input.error';
export { evolveWebhookDelivery } from './evolve-webhook-delivery';
export { decideWebhookDelivery } from './decide-webhook-delivery';
export {
  attemptIdOfWebhookStream,
  WEBHOOK_STREAM_PREFIX,
  webhookDeliveryDecider,
  webhookStreamId,
} from './webhook-delivery.decider';
export { nextDue, type DueWebhook } from './next-due';
export { deliveryStats, type FailingWebhook, type WebhookDeliveryStats } from './delivery-stats';
export { MAX_DELIVERY_TRIES, RETRY_JITTER, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule';
