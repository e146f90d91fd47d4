// RFC 9110 §10.2.3: delay-seconds or an HTTP-date (IMF-fixdate). Anything else is ignored rather than guessed at.
const DELAY_SECONDS = /^[0-9]{1,9}$/;
const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** A Retry-After header as milliseconds from `nowMs`; null when absent or unreadable. A past date means now. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  const trimmed = value?.trim();
  if (trimmed === undefined) return null;
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
