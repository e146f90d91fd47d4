export * from './webhooks.module';
export * from './webhooks.options';
export * from './outbox/outbox-relay';
export * from './dispatch/webhook-dispatcher';
export * from './dispatch/webhook-stream';
export * from './delivery/deliver-webhook';
export { webhookEventsProjection } from './control/webhook-event-table';
export { WebhookHistoryCompactor } from './retention/webhook-history-compactor';
export { compactWebhookHistories, type CompactionReport } from './retention/compact-webhook-histories';
