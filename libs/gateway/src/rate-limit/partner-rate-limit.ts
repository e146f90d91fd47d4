import { type PartnerConfig } from '@svc/platform';
import { type FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { noteRateLimit, rateLimitHeaders } from './rate-limit-headers';
import { type RateLimiter } from './rate-limiter';
import { requestWeight } from './request-weight';

/** The policy name partners see in RateLimit-Policy once authenticated. */
export const PARTNER_POLICY = 'partner';

/**
 * Step 5 of the pipeline: takes the request's weight from its partner's bucket, notes the RateLimit fields for the
 * response, and refuses with 429 rate_limited and Retry-After when the bucket does not hold it.
 */
export function chargePartner(
  limiter: RateLimiter,
  request: FastifyRequest,
  partner: PartnerConfig,
  routeName: string,
  body: unknown,
  now: number,
): void {
  const weight = requestWeight(routeName, body, partner);
  const decision = limiter.take(partner.partnerId, partner.rateLimitPerMinute, now, weight);
  noteRateLimit(request, rateLimitHeaders(PARTNER_POLICY, decision));
  if (!decision.allowed)
    throw new ApiError(
      'rate_limited',
      `rate limit of ${partner.rateLimitPerMinute} units per minute reached (this request costs ${Math.min(weight, partner.rateLimitPerMinute)})`,
      { retryAfterSeconds: decision.retryAfterSeconds },
    );
}
