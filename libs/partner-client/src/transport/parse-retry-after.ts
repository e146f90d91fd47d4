// RFC 9110 allows delta-seconds or an HTTP-date (always in GMT); anything else is ignored, since Date.parse
// would happily read strings such as "-1" or "1.5" as dates.
const DELTA_SECONDS = /^[0-9]+$/;
const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Retry-After as milliseconds from now: delta-seconds (what this API sends) or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const trimmed = value?.trim();
  if (trimmed === undefined) return undefined;
  if (DELTA_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  return Math.max(0, Date.parse(trimmed) - nowMs);
}
