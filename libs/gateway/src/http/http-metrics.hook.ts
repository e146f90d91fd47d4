import { type onResponseHookHandler } from 'fastify';
import { Histogram } from 'prom-client';
import { registeredMetric } from '@svc/platform';
import { routeTemplate } from './route-table';

const httpRequestDuration = registeredMetric(
  'intent_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'intent_http_request_duration_seconds',
      help: 'HTTP requests until the response is sent, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Observes every request once its response is sent. Labels stay bounded whatever clients send: the route is the
 * route table's template (ids never appear) or `unmatched`, and an unusual method is `other`.
 */
export function httpMetrics(): onResponseHookHandler {
  return (request, reply, done) => {
    httpRequestDuration.observe(
      {
        method: METHODS.has(request.method) ? request.method : 'other',
        route: routeTemplate(request.url.split('?')[0] ?? '') ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  };
}
