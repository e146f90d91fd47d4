import { Counter, Histogram } from 'prom-client';
import { registeredMetric } from '@svc/platform';
import { type RoutableProvider } from '../provider-adapter.port';
import { type HttpResult } from './http-result';

/** Which endpoint a call went to, as metric labels: a fixed name per endpoint, never the URL (it may hold a key). */
export interface ProviderCallMetric {
  provider: RoutableProvider;
  operation: string;
}

export type ProviderCallOutcome =
  'ok' | 'http_3xx' | 'http_4xx' | 'http_5xx' | 'timeout' | 'network' | 'unreadable';

const LABELS = ['provider', 'operation', 'outcome'] as const;

/** Every HTTP exchange with a provider API: its duration by outcome, and the failures alone as a counter. */
export const providerMetrics = {
  duration: registeredMetric(
    'intent_provider_call_duration_seconds',
    () =>
      new Histogram({
        name: 'intent_provider_call_duration_seconds',
        help: 'Provider API calls, from sending the request to having read the body, by outcome',
        labelNames: LABELS,
        buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
      }),
  ),
  errors: registeredMetric(
    'intent_provider_call_errors_total',
    () =>
      new Counter({
        name: 'intent_provider_call_errors_total',
        help: 'Provider API calls that did not end in a 2xx JSON answer, by outcome',
        labelNames: LABELS,
      }),
  ),
};

/**
 * A non-2xx answer is reported by its status class even when its body is not JSON: the HTML 502 of a provider's
 * load balancer is an outage, not a parsing problem. `unreadable` is left for 2xx answers we could not read.
 */
export function providerCallOutcome(result: HttpResult): ProviderCallOutcome {
  if (result.kind === 'timeout' || result.kind === 'network') return result.kind;
  const { status } = result;
  if (status >= 200 && status < 300) return result.kind === 'json' ? 'ok' : 'unreadable';
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  // fetch only hands out 200–599, and redirects are not followed (see fetchJson).
  return 'http_3xx';
}

/** Records one finished call; `started` is the `process.hrtime.bigint()` taken before sending. */
export function recordProviderCall(metric: ProviderCallMetric, result: HttpResult, started: bigint): void {
  const outcome = providerCallOutcome(result);
  const labels = { provider: metric.provider, operation: metric.operation, outcome };
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  providerMetrics.duration.observe(labels, seconds);
  if (outcome !== 'ok') providerMetrics.errors.inc(labels);
}
