import { STATUS_CODES } from 'node:http';
import { API_PREFIX, API_VERSION, type ErrorResponse, HEADER } from '@svc/contract';
import { type Logger } from '@svc/platform';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { declaresBody } from '../http/read-raw-body';
import { sendErrorResponse } from '../http/send-error-response';
import { authFailureKey } from './client-key';
import { noteRateLimit, rateLimitHeaders } from './rate-limit-headers';
import { RateLimiter } from './rate-limiter';

/** The policy name of RateLimit-Policy on answers to requests that failed authentication. */
export const UNAUTHENTICATED_POLICY = 'unauthenticated';

/**
 * Bodies read at once for one spent budget (address and claimed partner): a request with a body must be read to be
 * verified, so a client whose budget is spent may have this many read at a time; one more is refused before its
 * body is read.
 */
export const SPENT_BUDGET_BODY_READS = 2;

export interface UnauthenticatedThrottleOptions {
  perMinute: number;
  /** Told once per process when X-Forwarded-For arrives and no proxy is trusted. */
  logger?: Logger;
  trustsProxy?: boolean;
  now?: () => number;
}

/**
 * Throttles requests that fail authentication, and only those (issue 23). A budget is per client address (Fastify's
 * `request.ip`: the socket's peer, or with TRUST_PROXY the address the trusted proxies forwarded; IPv6 by /64) and
 * claimed partner id (`X-Partner-Id`), so that one client's failures never spend another's budget. Each 401 of the
 * API takes one unit and carries its RateLimit fields; once the budget is spent, a request under it that fails
 * authentication is answered 429 unauthenticated_rate_limited with Retry-After (and the connection closed) instead of
 * 401, until the budget refills. A request that authenticates is never refused for it: it is verified like any other.
 * What a spent budget still costs us is bounded: at most SPENT_BUDGET_BODY_READS of its requests with a body are read
 * at a time; one more is refused before its body is read. Per process, like the partners' budgets.
 */
export function throttleUnauthenticated(
  fastify: FastifyInstance,
  options: UnauthenticatedThrottleOptions,
): RateLimiter {
  const { perMinute, logger } = options;
  const now = options.now ?? Date.now;
  const limiter = new RateLimiter();
  const readingBodies = new Map<string, number>();
  const keys = new WeakMap<FastifyRequest, string>();
  let warnedForwardedFor = options.trustsProxy === true;
  const isApi = (request: FastifyRequest) => request.url.startsWith(`${API_PREFIX}/`);

  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!isApi(request)) return done();
    if (!warnedForwardedFor && request.headers['x-forwarded-for'] !== undefined) {
      warnedForwardedFor = true;
      logger?.warn(
        { setting: 'TRUST_PROXY' },
        'requests arrive with X-Forwarded-For but TRUST_PROXY is unset: every client behind the proxy is counted ' +
          'as the proxy address; set TRUST_PROXY to the hop count or the proxy addresses (docs/operations/configuration.md)',
      );
    }
    const key = authFailureKey(request.ip, request.headers);
    keys.set(request, key);
    if (!declaresBody(request.headers)) return done();
    const decision = limiter.peek(key, perMinute, now());
    if (decision.allowed) return done();
    const reading = readingBodies.get(key) ?? 0;
    if (reading >= SPENT_BUDGET_BODY_READS) {
      noteRateLimit(request, rateLimitHeaders(UNAUTHENTICATED_POLICY, decision));
      sendErrorResponse(reply, limited(perMinute, decision.retryAfterSeconds), pathOf(request));
      return;
    }
    readingBodies.set(key, reading + 1);
    reply.raw.once('close', () => {
      const left = (readingBodies.get(key) ?? 1) - 1;
      if (left > 0) readingBodies.set(key, left);
      else readingBodies.delete(key);
    });
    done();
  });

  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const key = keys.get(request);
    if (reply.statusCode !== 401 || key === undefined) return done(null, payload);
    const decision = limiter.take(key, perMinute, now());
    noteRateLimit(request, rateLimitHeaders(UNAUTHENTICATED_POLICY, decision));
    if (decision.allowed) return done(null, payload);
    // The budget is spent: this failure is answered 429 instead of 401 (what it would have said is not told).
    const error = limited(perMinute, decision.retryAfterSeconds);
    reply.code(error.status);
    reply.header('Retry-After', String(error.extra.retryAfterSeconds));
    reply.header('Connection', 'close');
    const body: ErrorResponse = {
      apiVersion: API_VERSION,
      error: STATUS_CODES[error.status] ?? 'Error',
      code: error.code,
      message: error.message,
      path: pathOf(request),
      requestId: request.id,
    };
    reply.header(HEADER.apiVersion, API_VERSION);
    reply.header('content-type', 'application/json; charset=utf-8');
    done(null, JSON.stringify(body));
  });
  return limiter;
}

function limited(perMinute: number, retryAfterSeconds: number): ApiError {
  return new ApiError(
    'unauthenticated_rate_limited',
    `more than ${perMinute} requests a minute from this address for this partner id failed authentication`,
    { retryAfterSeconds, headers: { Connection: 'close' } },
  );
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '';
