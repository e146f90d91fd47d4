import { Counter, Histogram } from 'prom-client';
import { registeredMetric } from '@svc/platform';

/** How far the outbox relay runs behind the store: from an event's recording to the broker accepting it. */
export const outboxMetrics = {
  lag: registeredMetric(
    'intent_outbox_lag_seconds',
    () =>
      new Histogram({
        name: 'intent_outbox_lag_seconds',
        help: 'From a lifecycle event being recorded to its publication on attempt.lifecycle',
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
      }),
  ),
  published: registeredMetric(
    'intent_outbox_published_total',
    () =>
      new Counter({
        name: 'intent_outbox_published_total',
        help: 'Lifecycle events published by the outbox relay',
      }),
  ),
};
