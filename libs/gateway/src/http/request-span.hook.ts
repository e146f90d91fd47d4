import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { endSpan, type Span, SpanKind, startSpan, withActiveSpan } from '@svc/platform';
import { routeTemplate } from './route-table';

const OPS_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A SERVER span per partner request on the public edge (`POST /api/external/quote`): method, route template, status
 * code and request id; never headers, bodies, signatures or ids in the path. Each request starts a new trace (a
 * partner's own `traceparent` is not continued: it would let callers pick our trace ids and sampling). The handler
 * runs with the span active, so the bus request, and through its headers the feature's handler, join the trace.
 * Probes and scrapes are not traced.
 */
export function requestSpans(fastify: FastifyInstance): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = routeTemplate(request.url.split('?')[0] ?? '') ?? 'unmatched';
    if (!OPS_ROUTES.has(route)) {
      spans.set(
        request,
        startSpan(`${request.method} ${route}`, {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': route,
            'svc.request_id': request.id,
          },
        }),
      );
    }
    done();
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (span) withActiveSpan(span, done);
    else done();
  });
  // The later onResponse hooks (access log, metrics) run inside `done`, with the span active, so the access-log
  // line carries its trace id; the span ends once they ran.
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (!span) {
      done();
      return;
    }
    spans.delete(request);
    span.setAttribute('http.response.status_code', reply.statusCode);
    try {
      withActiveSpan(span, done);
    } finally {
      endSpan(span, reply.statusCode >= 500);
    }
  });
}
