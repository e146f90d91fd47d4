// RFC 9110 §10.2.3 allows delay-seconds or an HTTP-date (IMF-fixdate, always GMT). Anything else is ignored rather
// than guessed at: Date.parse would read strings such as "-1" or "1.5" as dates.
const DELAY_SECONDS = /^[0-9]{1,9}$/;
const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * A Retry-After header as milliseconds from `nowMs`; null when absent or unreadable. A past date means now. What to do
 * with a long wait is the caller's decision (the partner client caps it, the provider adapters drop one past a day).
 * One reading for every HTTP answer the service and its client take: partners', providers', the gateway's own.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  const trimmed = value?.trim();
  if (trimmed === undefined) return null;
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
