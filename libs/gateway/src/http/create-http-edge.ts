import { randomUUID } from 'node:crypto';
import { HttpException, NotFoundException } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { type FastifyServerOptions, type onResponseHookHandler } from 'fastify';
import { type Logger } from '@svc/platform';
import { accessLog } from './access-log.hook';
import { apiErrorOf } from './api-error-of';
import { apiVersionHeader } from './api-version.hook';
import { httpMetrics } from './http-metrics.hook';
import { acceptRawBodies } from './raw-body.parser';
import { sendErrorResponse } from './send-error-response';

export interface HttpEdgeOptions {
  logger: Logger;
  /** Largest accepted request body (MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** The public API edge: `X-Service-Api-Version` on every response. */
  apiVersionHeader: boolean;
}

/** Node's own default, which the service had before Fastify (whose default is no limit). */
const REQUEST_TIMEOUT_MS = 300_000;
/** Path parameters as long as the request line allows (Node's 16 KiB header limit), as before Fastify. */
const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * The HTTP server under every app: Nest on Fastify (ADR 0006). Routing matches what partners had before it:
 * case-insensitive, one trailing slash ignored, ids of any length. Each request gets an id (`X-Request-Id`), a
 * metrics observation and an access-log line; bodies reach the gateway as raw bytes. Hooks, not middleware, so no
 * middie.
 */
export function createHttpEdge(options: HttpEdgeOptions): FastifyAdapter {
  const onResponse = [httpMetrics(), accessLog(options.logger)];
  const adapter = new FastifyAdapter({
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    genReqId: () => randomUUID(),
    requestTimeout: REQUEST_TIMEOUT_MS,
    // While closing, requests on open connections are still answered (with the error envelope if need be).
    return503OnClosing: false,
    frameworkErrors: unroutable(onResponse),
    skipMiddie: true,
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  if (options.apiVersionHeader) fastify.addHook('onRequest', apiVersionHeader);
  for (const hook of onResponse) fastify.addHook('onResponse', hook);
  acceptRawBodies(fastify, options.maxBodyBytes);
  return adapter;
}

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
