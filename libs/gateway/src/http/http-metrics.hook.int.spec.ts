import { API_PREFIX } from '@svc/contract';
import { fastify, type FastifyInstance } from 'fastify';
import { type Histogram, register } from 'prom-client';
import { httpMetrics } from './http-metrics.hook';

type Labels = { method: string; route: string; status: string };

/** Observations per label set; the registry is shared with other tests, so assertions are on deltas. */
async function counts(): Promise<Map<string, number>> {
  const metric = await (register.getSingleMetric('intent_http_request_duration_seconds') as Histogram).get();
  const byLabels = new Map<string, number>();
  for (const v of metric.values)
    if (v.metricName === 'intent_http_request_duration_seconds_count') {
      const { method, route, status } = v.labels as Labels;
      byLabels.set(`${method} ${route} ${status}`, v.value);
    }
  return byLabels;
}

describe('httpMetrics', () => {
  let app: FastifyInstance;
  let origin: string;

  beforeAll(async () => {
    app = fastify();
    app.addHook('onResponse', httpMetrics());
    app.get('/healthz', (_req, reply) => reply.send({ status: 'ok' }));
    app.post(`${API_PREFIX}/intents/:intentSessionId/prepare`, (_req, reply) => reply.status(201).send({}));
    app.get(`${API_PREFIX}/attempts/:attemptId/status`, (_req, reply) => reply.send({}));
    origin = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  async function recorded(requests: [method: string, path: string][]): Promise<Record<string, number>> {
    const before = await counts();
    for (const [method, path] of requests) {
      const res = await fetch(origin + path, { method });
      await res.arrayBuffer();
    }
    // `onResponse` runs once the response is handed to the socket, which may be just after the client has it.
    await new Promise((resolve) => setImmediate(resolve));
    const after = await counts();
    const delta: Record<string, number> = {};
    for (const [key, value] of after) {
      const added = value - (before.get(key) ?? 0);
      if (added > 0) delta[key] = added;
    }
    return delta;
  }

  it('names API routes by their template, so ids never become labels', async () => {
    const delta = await recorded([
      ['POST', `${API_PREFIX}/intents/is_01HZX1/prepare`],
      ['POST', `${API_PREFIX}/intents/is_01HZX2/prepare`],
      ['GET', `${API_PREFIX}/attempts/at_9/status?verbose=1`],
    ]);
    expect(delta).toEqual({
      [`POST ${API_PREFIX}/intents/:intentSessionId/prepare 201`]: 2,
      [`GET ${API_PREFIX}/attempts/:attemptId/status 200`]: 1,
    });
  });

  it('keeps fixed paths as they are, and a known path with another method under its template', async () => {
    const delta = await recorded([
      ['GET', '/healthz'],
      ['GET', `${API_PREFIX}/intents/is_01HZX3/prepare`],
    ]);
    expect(delta).toEqual({
      'GET /healthz 200': 1,
      [`GET ${API_PREFIX}/intents/:intentSessionId/prepare 404`]: 1,
    });
  });

  it('folds every unknown path into one `unmatched` series', async () => {
    const delta = await recorded([
      ['GET', '/wp-admin/setup-config.php'],
      ['GET', '/.env'],
      ['POST', `${API_PREFIX}/intents/x/y/prepare`],
      ['GET', `${API_PREFIX}/healthz`],
      ['PROPFIND', '/'],
    ]);
    expect(delta).toEqual({
      'GET unmatched 404': 3,
      'POST unmatched 404': 1,
      'other unmatched 404': 1,
    });
  });
});
