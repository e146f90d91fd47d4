import { Counter, Gauge, Histogram, register } from 'prom-client';

function once<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

/** Deliveries by outcome, lag from the lifecycle event to a successful delivery, and the queue depth. */
export const webhookMetrics = {
  deliveries: once(
    'webhook_deliveries_total',
    () =>
      new Counter({
        name: 'webhook_deliveries_total',
        help: 'Webhook delivery tries by outcome',
        labelNames: ['outcome'],
      }),
  ),
  lag: once(
    'webhook_delivery_lag_seconds',
    () =>
      new Histogram({
        name: 'webhook_delivery_lag_seconds',
        help: 'From the lifecycle event to its successful delivery',
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 7200],
      }),
  ),
  queueDepth: once(
    'webhook_queue_depth',
    () => new Gauge({ name: 'webhook_queue_depth', help: 'Webhooks queued or retrying, all attempts' }),
  ),
};
