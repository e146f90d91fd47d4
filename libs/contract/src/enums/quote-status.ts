/** spec: Enumerations / QuoteStatus. `expired` is reported only on an idempotent replay of a stale quote. */
export const QUOTE_STATUSES = ['ready', 'partial_only', 'unavailable', 'expired'] as const;

export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
