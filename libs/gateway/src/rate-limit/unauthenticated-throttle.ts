import { API_PREFIX } from '@svc/contract';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { sendErrorResponse } from '../http/send-error-response';
import { noteRateLimit, rateLimitHeaders } from './rate-limit-headers';
import { RateLimiter } from './rate-limiter';

/** The policy name of RateLimit-Policy on answers to requests that failed authentication. */
export const UNAUTHENTICATED_POLICY = 'unauthenticated';

/**
 * Throttles requests that fail authentication, per client address (Fastify's `request.ip`: the socket's peer, or
 * with TRUST_PROXY the address the trusted proxies forwarded). Each 401 of the API takes one unit of the address's budget and carries its RateLimit
 * fields; once the budget is spent, every API request from that address is answered 429
 * unauthenticated_rate_limited with Retry-After in onRequest, before its body is read or anything is looked up,
 * until the budget refills. Authenticated traffic never spends it. Per process, like the partners' budgets.
 */
export function throttleUnauthenticated(
  fastify: FastifyInstance,
  perMinute: number,
  now: () => number = Date.now,
): RateLimiter {
  const limiter = new RateLimiter();
  const isApi = (request: FastifyRequest) => request.url.startsWith(`${API_PREFIX}/`);
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!isApi(request)) return done();
    const decision = limiter.peek(request.ip, perMinute, now());
    if (decision.allowed) return done();
    noteRateLimit(request, rateLimitHeaders(UNAUTHENTICATED_POLICY, decision));
    sendErrorResponse(
      reply,
      new ApiError(
        'unauthenticated_rate_limited',
        `more than ${perMinute} requests a minute from this address failed authentication`,
        { retryAfterSeconds: decision.retryAfterSeconds, headers: { Connection: 'close' } },
      ),
      request.url.split('?')[0] ?? '',
    );
  });
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (reply.statusCode === 401 && isApi(request)) {
      const decision = limiter.take(request.ip, perMinute, now());
      noteRateLimit(request, rateLimitHeaders(UNAUTHENTICATED_POLICY, decision));
    }
    done(null, payload);
  });
  return limiter;
}
