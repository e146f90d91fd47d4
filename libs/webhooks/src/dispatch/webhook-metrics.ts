import { Counter, Gauge, Histogram } from 'prom-client';
import { registeredMetric } from '@svc/platform';

/**
 * Deliveries by outcome, lag from the lifecycle event to a successful delivery, the queue depth, and the partner
 * endpoints whose circuit breaker holds their webhooks.
 */
export const webhookMetrics = {
  deliveries: registeredMetric(
    'intent_webhook_deliveries_total',
    () =>
      new Counter({
        name: 'intent_webhook_deliveries_total',
        help: 'Webhook delivery tries by outcome',
        labelNames: ['outcome'],
      }),
  ),
  lag: registeredMetric(
    'intent_webhook_delivery_lag_seconds',
    () =>
      new Histogram({
        name: 'intent_webhook_delivery_lag_seconds',
        help: 'From the lifecycle event to its successful delivery',
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 7200],
      }),
  ),
  endpointsOpen: registeredMetric(
    'intent_webhook_endpoints_open',
    () =>
      new Gauge({
        name: 'intent_webhook_endpoints_open',
        help: 'Partners whose callback URL is held by the circuit breaker (open or on its trial), this process',
      }),
  ),
  lifecycleRefused: registeredMetric(
    'intent_webhook_lifecycle_messages_refused_total',
    () =>
      new Counter({
        name: 'intent_webhook_lifecycle_messages_refused_total',
        help: 'attempt.lifecycle messages dropped because the attempt stream holds no such event (forged or garbled)',
      }),
  ),
  queueDepth: registeredMetric(
    'intent_webhook_queue_depth',
    () =>
      new Gauge({ name: 'intent_webhook_queue_depth', help: 'Webhooks queued or retrying, all attempts' }),
  ),
};
