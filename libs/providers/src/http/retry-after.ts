import { parseRetryAfter } from '@svc/contract';

/** A day: a `Retry-After` past this is not a back-off hint we would honour, so it is not kept. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A provider's `Retry-After` (read as every HTTP answer is: parseRetryAfter) as milliseconds from `now`; null when
 * absent, unreadable or past a day. Kept as the provider said it: whether to wait that long is the caller's decision.
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  const ms = parseRetryAfter(header, now);
  return ms !== null && ms <= MAX_RETRY_AFTER_MS ? ms : null;
}
