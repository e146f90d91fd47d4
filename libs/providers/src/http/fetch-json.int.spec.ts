import { type Counter, type Histogram, register } from 'prom-client';
import { RelayAdapter } from '../relay/relay.adapter';
import {
  type FakeProviderServer,
  type Reply,
  startFakeProviderServer,
} from '../testing/fake-provider-server.test-helper';
import { quoteSlice } from '../testing/quote-slice.test-helper';
import { fetchJson } from './fetch-json';
import { type ProviderCallOutcome } from './provider-metrics';

interface Labels {
  provider: string;
  operation: string;
  outcome: ProviderCallOutcome;
}

/** The registry is shared with every other test in the process, so assertions are on deltas. */
async function readMetrics(labels: Labels) {
  const matches = (entry: { labels: Record<string, unknown> }) =>
    Object.entries(labels).every(([name, value]) => entry.labels[name] === value);
  const duration = await (
    register.getSingleMetric('intent_provider_call_duration_seconds') as Histogram
  ).get();
  const errors = await (register.getSingleMetric('intent_provider_call_errors_total') as Counter).get();
  const histogram = (name: string) =>
    duration.values.find((v) => v.metricName === name && matches(v))?.value ?? 0;
  return {
    count: histogram('intent_provider_call_duration_seconds_count'),
    sum: histogram('intent_provider_call_duration_seconds_sum'),
    errors: errors.values.find(matches)?.value ?? 0,
  };
}

async function delta(labels: Labels, act: () => Promise<unknown>) {
  const before = await readMetrics(labels);
  await act();
  const after = await readMetrics(labels);
  return {
    count: after.count - before.count,
    sum: after.sum - before.sum,
    errors: after.errors - before.errors,
  };
}

describe('fetchJson provider call metrics', () => {
  let server: FakeProviderServer;
  const call = (reply: Reply, operation: string, timeoutMs = 5000) => {
    server.route('GET', '/thing', reply);
    return fetchJson(fetch, {
      method: 'GET',
      url: `${server.origin}/thing?apiKey=metric-secret-key`,
      signal: new AbortController().signal,
      timeoutMs,
      metric: { provider: 'relay', operation },
    });
  };

  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it('a 2xx JSON answer → one ok observation, no error counted', async () => {
    const labels = { provider: 'relay', operation: 'metrics_ok', outcome: 'ok' } as const;
    const d = await delta(labels, () => call({ status: 200, body: { fine: true } }, labels.operation));
    expect(d).toMatchObject({ count: 1, errors: 0 });
    expect(d.sum).toBeGreaterThan(0);
  });

  it.each([
    ['a 503', 'http_5xx', { status: 503, body: { message: 'down' } }],
    ['a 400', 'http_4xx', { status: 400, body: { message: 'bad' } }],
    ['a 302 (not followed)', 'http_3xx', { status: 302, headers: { location: '/elsewhere' }, body: {} }],
    ['an HTML 502 from a load balancer', 'http_5xx', { status: 502, raw: '<html>Bad Gateway</html>' }],
    ['a 200 whose body is not JSON', 'unreadable', { status: 200, raw: '{"truncated":' }],
    ['a dropped connection', 'network', 'drop'],
  ] as const)('%s → observed and counted as %s', async (_name, outcome, reply) => {
    const labels = { provider: 'relay', operation: `metrics_${outcome}`, outcome };
    const d = await delta(labels, () => call(reply, labels.operation));
    expect(d).toMatchObject({ count: 1, errors: 1 });
  });

  it('a server that hangs past the time-out → timeout, with the time waited in the histogram', async () => {
    const labels = { provider: 'relay', operation: 'metrics_timeout', outcome: 'timeout' } as const;
    const d = await delta(labels, () => call('hang', labels.operation, 150));
    expect(d).toMatchObject({ count: 1, errors: 1 });
    expect(d.sum).toBeGreaterThanOrEqual(0.14);
    expect(d.sum).toBeLessThan(2);
  });

  it('labels never carry the URL or its key', async () => {
    await call({ status: 503, body: {} }, 'metrics_no_url');
    const exposition = await register.metrics();
    expect(exposition).toContain('operation="metrics_no_url"');
    expect(exposition).not.toContain('metric-secret-key');
    expect(exposition).not.toContain(server.origin);
  });

  it('an adapter labels its calls with its provider and endpoint', async () => {
    const labels = { provider: 'relay', operation: 'quote', outcome: 'http_5xx' } as const;
    const adapter = new RelayAdapter({
      baseUrl: server.origin,
      apiKey: null,
      timeoutMs: 5000,
      failureGraceMs: 600_000,
      requestsPerMinute: 200,
    });
    server.route('POST', '/quote/v2', { status: 503, body: { message: 'down' } });
    const d = await delta(labels, () =>
      adapter.quote(quoteSlice(), { signal: new AbortController().signal }),
    );
    expect(d).toMatchObject({ count: 1, errors: 1 });
  });
});
