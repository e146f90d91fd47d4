export * from './webhook-delivery.events';
export * from './webhook-delivery.commands';
export {
  initialWebhookDeliveryState,
  type WebhookDeliveryState,
  type WebhookEntryStatus,
  type WebhookQueueEntry,
  queueHead,
} from './webhook-delivery.state';
export { REDELIVERY_WINDOW, redeliveryAllowedAt } from './redelivery-rate-limit';
export * from './webhook-delivery-refused.error';
export * from './webhook-delivery-input.error';
export { evolveWebhookDelivery } from './evolve-webhook-delivery';
export { MIN_WEBHOOK_RETENTION_MS } from './compact-webhook-history';
export { decideWebhookDelivery } from './decide-webhook-delivery';
export {
  attemptIdOfWebhookStream,
  WEBHOOK_STREAM_PREFIX,
  webhookDeliveryDecider,
  webhookStreamId,
} from './webhook-delivery.decider';
export { nextDue, type DueWebhook } from './next-due';
export { lifecycleOccurredAt, webhookBody, type WebhookBodyMeta } from './webhook-body';
export {
  type WebhookDeliveryTry,
  type WebhookEventHistory,
  webhookEventHistories,
} from './webhook-event-history';
export { deliveryStats, type FailingWebhook, type WebhookDeliveryStats } from './delivery-stats';
export { MAX_DELIVERY_TRIES, RETRY_JITTER, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule';
export {
  type BreakerPolicy,
  DEFAULT_BREAKER_POLICY,
  type EndpointBreakerState,
  initialEndpointBreakerState,
} from './endpoint-breaker.state';
export { type EndpointBreakerEvent } from './endpoint-breaker.events';
export * from './endpoint-breaker.commands';
export { endpointBreakerDecider, evolveEndpointBreaker } from './endpoint-breaker.decider';
export { endpointTryOutcome } from './endpoint-try-outcome';
