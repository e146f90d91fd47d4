import { parseRetryAfter } from '../protocol/retry-after';
import { HEADER } from '../protocol/wire';
import { type PartnerResponse } from '../partner-response';

export interface RetryPolicy {
  /** Retries after the first try. */
  maxRetries: number;
  baseDelayMs: number;
  /** Caps both the backoff and a server's Retry-After. */
  maxDelayMs: number;
}

/**
 * How long to wait before retry number `retryIndex` (0-based), or undefined when this outcome must not be
 * retried. Retried: no response at all (the request may or may not have run, which is why the key and bytes
 * stay the same), 5xx except 501 (a retry cannot implement the endpoint), 429, and 409
 * `idempotency_request_in_progress`. Every other 4xx is the caller's to fix: repeating it changes nothing.
 */
export function retryDelayMs(
  response: PartnerResponse | undefined,
  retryIndex: number,
  policy: RetryPolicy,
  nowMs: number,
  random: () => number = Math.random,
): number | undefined {
  if (retryIndex >= policy.maxRetries) return undefined;
  if (response !== undefined && !isRetryable(response)) return undefined;
  // Jitter in [half, full] of the exponential step, so many clients failing together do not retry in lockstep.
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const backoff = Math.round(step / 2 + (random() * step) / 2);
  const retryAfter = parseRetryAfter(response?.headers[HEADER.retryAfter], nowMs);
  return retryAfter === null ? backoff : Math.min(policy.maxDelayMs, Math.max(retryAfter, backoff));
}

function isRetryable(response: PartnerResponse): boolean {
  if (response.status >= 500) return response.status !== 501;
  if (response.status === 429) return true;
  return response.status === 409 && errorCodeOf(response.body) === 'idempotency_request_in_progress';
}

function errorCodeOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
}
