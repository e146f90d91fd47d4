import { type QuoteErrorCodes } from '../failures/classify-quote-error';

/**
 * Mayan documents no error codes (reference/providers.md §3.6); every 4xx falls back to route_unavailable.
 * These are the spellings an "amount too small" refusal has been seen or is likely to take.
 */
export const MAYAN_ERROR_CODES: QuoteErrorCodes = {
  routeUnavailable: [],
  amountTooLow: ['AMOUNT_TOO_SMALL', 'AMOUNT_TOO_LOW', 'MIN_AMOUNT'],
};
