import { collectDefaultMetrics, register } from 'prom-client';

/** Every series this service exposes starts with it, the Node and process ones too: one prefix to select them by. */
export const METRIC_PREFIX = 'intent_';

/**
 * prom-client's Node and process series (CPU, resident memory, open file descriptors, heap, event-loop lag, GC) on the
 * default registry, prefixed: `intent_process_*`, `intent_nodejs_*`. Once per process; later calls do nothing.
 */
export function collectProcessMetrics(): void {
  if (register.getSingleMetric(`${METRIC_PREFIX}process_cpu_seconds_total`)) return;
  collectDefaultMetrics({ prefix: METRIC_PREFIX });
}
