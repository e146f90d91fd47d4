import { registeredMetric } from '@svc/platform';
import { Counter, Gauge } from 'prom-client';

/** Attempts by status, as the tracker's census of the store sees them (every tracker instance reports the whole store). */
export const settlementMetrics = {
  attempts: registeredMetric(
    'intent_attempts',
    () =>
      new Gauge({
        name: 'intent_attempts',
        help: 'Attempts by status (whole store)',
        labelNames: ['status'],
      }),
  ),
  /** ADR 0008: a settled leg's fill found gone from its block within the re-check window. Alert on any increase. */
  settledFillsVanished: registeredMetric(
    'intent_settled_fills_vanished_total',
    () =>
      new Counter({
        name: 'intent_settled_fills_vanished_total',
        help: 'Settled legs whose fill was later gone from its block (a reorganisation after settled)',
      }),
  ),
};
