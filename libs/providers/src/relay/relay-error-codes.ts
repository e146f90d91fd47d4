import { type QuoteErrorCodes } from '../failures/classify-quote-error';

/** reference/providers.md §1.6. */
export const RELAY_ERROR_CODES: QuoteErrorCodes = {
  routeUnavailable: [
    'NO_QUOTES',
    'NO_SWAP_ROUTES_FOUND',
    'NO_INTERNAL_SWAP_ROUTES_FOUND',
    'UNSUPPORTED_ROUTE',
    'UNSUPPORTED_CHAIN',
    'UNSUPPORTED_CURRENCY',
    'INSUFFICIENT_LIQUIDITY',
    'ROUTE_TEMPORARILY_RESTRICTED',
    'CHAIN_DISABLED',
  ],
  amountTooLow: ['AMOUNT_TOO_LOW'],
};
