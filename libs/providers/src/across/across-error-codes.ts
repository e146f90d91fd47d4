import { type QuoteErrorCodes } from '../failures/classify-quote-error';

/**
 * Codes from across-protocol/frontend api/_errors.ts (`AcrossErrorCode`, bdcf46ce), nothing else. Any other 4xx
 * (INVALID_PARAM, MISSING_PARAM, AMOUNT_TOO_HIGH, SWAP_SLIPPAGE_INSUFFICIENT, SIMULATION_ERROR, ...) refuses the
 * route by status, and so does an unknown token, which is a 404 without a code (TokenNotFoundError).
 * - The "Status: 50X" codes are transient even on a 400: getSwapQuoteUnavailableError passes an upstream code on
 *   with status 400 unless it is UPSTREAM_HTTP_ERROR or UPSTREAM_RPC_ERROR.
 * - AMOUNT_TOO_LOW covers the swap case too: "Bridge amount X is too low to cover bridge fees Y"
 *   (SwapAmountTooLowForBridgeFeesError).
 */
export const ACROSS_ERROR_CODES: QuoteErrorCodes = {
  routeUnavailable: ['ROUTE_NOT_ENABLED', 'SWAP_LIQUIDITY_INSUFFICIENT', 'SWAP_QUOTE_UNAVAILABLE'],
  amountTooLow: ['AMOUNT_TOO_LOW'],
  providerUnavailable: [
    'UPSTREAM_RPC_ERROR',
    'UPSTREAM_HTTP_ERROR',
    'UPSTREAM_GATEWAY_TIMEOUT',
    'UNEXPECTED_ERROR',
  ],
};
