/** A day: a `Retry-After` past this is not a back-off hint we would honour, so it is not kept. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A `Retry-After` header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from `now`; null when
 * absent or unreadable. Kept as the provider said it: whether to wait that long is the caller's decision.
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) {
    const ms = Number(value) * 1000;
    return ms <= MAX_RETRY_AFTER_MS ? ms : null;
  }
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/[a-z]/i.test(value)) return null;
  const ms = Math.max(0, at - now);
  return ms <= MAX_RETRY_AFTER_MS ? ms : null;
}
