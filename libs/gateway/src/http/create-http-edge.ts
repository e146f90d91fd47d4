import { randomUUID } from 'node:crypto';
import { HttpException, NotFoundException } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { type FastifyServerOptions, type onRequestHookHandler, type onResponseHookHandler } from 'fastify';
import { type Logger } from '@svc/platform';
import { notedRateLimit } from '../rate-limit/rate-limit-headers';
import { throttleUnauthenticated } from '../rate-limit/unauthenticated-throttle';
import { closeConnectionsWhenClosing } from './close-connections-when-closing';
import { accessLog } from './access-log.hook';
import { ApiError } from './api-error';
import { apiErrorOf } from './api-error-of';
import { apiVersionHeader } from './api-version.hook';
import { clientErrorHandler } from './client-error';
import { BodyBudget, DEFAULT_BODY_BUDGET_LIMITS } from './body-budget';
import { checkBeforeBody } from './check-before-body';
import { capConnections } from './connection-cap';
import { httpMetrics } from './http-metrics.hook';
import { serveOpenApi } from './openapi-routes';
import { cutStalledReaders } from './stalled-readers';
import { acceptRawBodies } from './raw-body.parser';
import { requestSpans } from './request-span.hook';
import { sendErrorResponse } from './send-error-response';
import { trustedPeer } from './trusted-peer';

/** The server's defences against slow or many clients (docs/operations/configuration.md, `HTTP_*`, `MAX_CONNECTIONS`). */
export interface HttpServerLimits {
  /** The request line and headers must arrive within this (HTTP_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /**
   * A connection whose client does not read what waits to be sent to it for this long is closed
   * (HTTP_SEND_TIMEOUT_MS): a slow reader. A slow writer is cut by the headers and request timeouts.
   */
  sendTimeoutMs: number;
  /** Connections held open at once; one more is answered 503 connection_limit_reached (MAX_CONNECTIONS). */
  maxConnections: number;
  /**
   * Connections one client address (IPv6: its /64) holds open at once; one more is answered 429
   * client_connection_limit_reached (MAX_CONNECTIONS_PER_CLIENT). Not applied to a trusted proxy (TRUST_PROXY).
   */
  maxConnectionsPerClient: number;
  /**
   * Connections one client address opens a second, in bursts of twice as many; one more is answered 429
   * client_connection_limit_reached at connect (MAX_NEW_CONNECTIONS_PER_CLIENT_PER_SECOND). Not applied to a trusted
   * proxy.
   */
  maxNewConnectionsPerClientPerSecond: number;
  /** Request-body bytes held at once, all clients together; past it 503 body_limit_reached (MAX_BODY_BYTES_IN_FLIGHT). */
  maxBodyBytesInFlight: number;
  /**
   * Request-body bytes one client address holds at once; past it 429 client_body_limit_reached
   * (MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT).
   */
  maxBodyBytesInFlightPerClient: number;
}

export const DEFAULT_HTTP_SERVER_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  sendTimeoutMs: 30_000,
  maxConnections: 10_000,
  maxConnectionsPerClient: 256,
  maxNewConnectionsPerClientPerSecond: 100,
  maxBodyBytesInFlight: DEFAULT_BODY_BUDGET_LIMITS.totalBytes,
  maxBodyBytesInFlightPerClient: DEFAULT_BODY_BUDGET_LIMITS.perClientBytes,
};

export interface HttpEdgeOptions {
  logger: Logger;
  /** Largest accepted request body (MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /**
   * The public API edge: `X-Service-Api-Version` on every response, the served OpenAPI document (`/openapi.json`,
   * `/docs`) and the throttle of requests that fail authentication.
   */
  apiVersionHeader: boolean;
  /** Default: DEFAULT_HTTP_SERVER_LIMITS. */
  limits?: HttpServerLimits;
  /** API requests failing authentication allowed per client address and minute (public edge only); default 60. */
  unauthenticatedRateLimitPerMinute?: number;
  /**
   * The proxies whose X-Forwarded-For names the client (TRUST_PROXY): without it, a load balancer in front makes
   * every client one address, and one client's failures would throttle them all. Default: none.
   */
  trustProxy?: false | number | string[];
  /** The clock authentication headers are checked against before a body is read (the gateway's); default Date.now. */
  now?: () => number;
}

/** Path parameters as long as the request line allows (Node's 16 KiB header limit), as before Fastify. */
const MAX_PARAM_LENGTH = 16 * 1024;
/** How often Node looks for connections past their headers or request timeout (its default is 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * The HTTP server under every app: Nest on Fastify (ADR 0006). Routing matches what partners had before it:
 * case-insensitive, one trailing slash ignored, ids of any length. Each request gets an id (`X-Request-Id`, and
 * `requestId` in an error body), a metrics observation and an access-log line; bodies reach the gateway as raw
 * bytes. Whatever the server answers carries the error envelope, including what Node's parser refuses and a
 * connection past the cap. Hooks, not middleware, so no middie.
 */
export function createHttpEdge(options: HttpEdgeOptions): FastifyAdapter {
  const limits = options.limits ?? DEFAULT_HTTP_SERVER_LIMITS;
  const onResponse = [httpMetrics(), accessLog(options.logger)];
  const adapter = new FastifyAdapter({
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    genReqId: () => randomUUID(),
    trustProxy: options.trustProxy ?? false,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; `requireHost` answers it instead,
      // with the envelope and the version header like every other refusal.
      requireHostHeader: false,
    },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    clientErrorHandler: clientErrorHandler({
      apiVersionHeader: options.apiVersionHeader,
      logger: options.logger,
    }),
    // While closing, requests on open connections are still answered (with the error envelope if need be).
    return503OnClosing: false,
    frameworkErrors: unroutable(onResponse),
    skipMiddie: true,
  });
  const fastify = adapter.getInstance();
  capConnections(
    fastify.server,
    {
      max: limits.maxConnections,
      perClient: limits.maxConnectionsPerClient,
      newPerClientPerSecond: limits.maxNewConnectionsPerClientPerSecond,
      sharedPeer: trustedPeer(options.trustProxy ?? false),
    },
    { apiVersionHeader: options.apiVersionHeader },
  );
  cutStalledReaders(fastify.server, limits.sendTimeoutMs);
  closeConnectionsWhenClosing(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  fastify.addHook('onRequest', requireHost);
  if (options.apiVersionHeader) {
    fastify.addHook('onRequest', apiVersionHeader);
    throttleUnauthenticated(fastify, {
      perMinute: options.unauthenticatedRateLimitPerMinute ?? 60,
      logger: options.logger,
      trustsProxy: (options.trustProxy ?? false) !== false,
    });
    // After the throttle, which answers a spent budget before anything else is looked at.
    checkBeforeBody(fastify, options.now ?? Date.now);
    serveOpenApi(fastify);
  }
  // After the throttle's own onSend, which notes the fields of a 401.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    for (const [name, value] of Object.entries(notedRateLimit(request) ?? {})) reply.header(name, value);
    done(null, payload);
  });
  // Before the access log and metrics hooks, so that the access-log line carries the request's trace id.
  if (options.apiVersionHeader) requestSpans(fastify);
  for (const hook of onResponse) fastify.addHook('onResponse', hook);
  acceptRawBodies(
    fastify,
    options.maxBodyBytes,
    new BodyBudget({
      perClientBytes: limits.maxBodyBytesInFlightPerClient,
      totalBytes: limits.maxBodyBytesInFlight,
    }),
  );
  return adapter;
}

/** RFC 9112 §3.2: an HTTP/1.1 request without a Host header is answered 400 (and the connection closed). */
const requireHost: onRequestHookHandler = (request, reply, done) => {
  if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return done();
  reply.header('Connection', 'close');
  sendErrorResponse(
    reply,
    new ApiError('malformed_http_request', 'an HTTP/1.1 request must carry a Host header'),
    request.url.split('?')[0] ?? '',
  );
};

/**
 * A path the router cannot decode (`%zz`) is answered outside Fastify's lifecycle, so without hooks or Nest's
 * filter: it is an unknown route, answered here as the filter would, and observed and logged all the same.
 */
function unroutable(onResponse: onResponseHookHandler[]): FastifyServerOptions['frameworkErrors'] {
  return (error, request, reply) => {
    reply.raw.once('finish', () => {
      for (const hook of onResponse) void hook.call(request.server, request, reply, () => undefined);
    });
    const exception =
      error.code === 'FST_ERR_BAD_URL'
        ? new NotFoundException()
        : new HttpException(error.message, error.statusCode ?? 400);
    reply.header('X-Request-Id', request.id);
    sendErrorResponse(
      reply,
      apiErrorOf(exception, request.method, request.url),
      request.url.split('?')[0] ?? '',
    );
  };
}
