/** A value as the report prints it: strings as they are, absent as `-`, anything else as JSON. */
export const str = (value: unknown): string =>
  value === null || value === undefined
    ? '-'
    : typeof value === 'string' || typeof value === 'bigint'
      ? value.toString()
      : JSON.stringify(value);

/** Epoch ms as ISO 8601 (UTC); `-` when absent. */
export const time = (ms: unknown): string => (typeof ms === 'number' ? new Date(ms).toISOString() : '-');
