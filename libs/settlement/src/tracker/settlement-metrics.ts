import { registeredMetric } from '@svc/platform';
import { Gauge } from 'prom-client';

/** Attempts by status, as the tracker's census of the store sees them (every tracker instance reports the whole store). */
export const settlementMetrics = {
  attempts: registeredMetric(
    'attempts',
    () => new Gauge({ name: 'attempts', help: 'Attempts by status (whole store)', labelNames: ['status'] }),
  ),
};
