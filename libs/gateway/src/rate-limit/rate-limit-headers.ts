import { type FastifyRequest } from 'fastify';
import { type RateLimitDecision } from './rate-limiter';

/**
 * The RateLimit-Policy and RateLimit fields of IETF draft-ietf-httpapi-ratelimit-headers-11 (May 2026), sections 3
 * and 4: Structured Field lists of one item, the policy name a String, `q` the quota, `w` the window in seconds,
 * `r` the units remaining and `t` the seconds until the quota is whole again.
 */
export function rateLimitHeaders(policy: string, decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${decision.quota};w=60`,
    RateLimit: `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

const noted = new WeakMap<FastifyRequest, Record<string, string>>();

/** Notes the rate-limit fields of a request; the edge writes them on its response, whatever it is. */
export function noteRateLimit(request: FastifyRequest, headers: Record<string, string>): void {
  noted.set(request, headers);
}

/** The rate-limit fields noted for a request, if a limit applied to it. */
export function notedRateLimit(request: FastifyRequest): Record<string, string> | undefined {
  return noted.get(request);
}
