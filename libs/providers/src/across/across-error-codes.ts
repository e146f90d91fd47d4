import { type QuoteErrorCodes } from '../failures/classify-quote-error';

/** reference/providers.md §2.6; the 5xx codes (UPSTREAM_*, UNEXPECTED_ERROR) fall out by status. */
export const ACROSS_ERROR_CODES: QuoteErrorCodes = {
  routeUnavailable: ['ROUTE_NOT_ENABLED', 'SWAP_LIQUIDITY_INSUFFICIENT', 'SWAP_QUOTE_UNAVAILABLE'],
  amountTooLow: ['AMOUNT_TOO_LOW'],
};
