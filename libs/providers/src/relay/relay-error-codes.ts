import { type QuoteErrorCodes } from '../failures/classify-quote-error';

/**
 * Codes from Relay's "Handling Quote Errors" page (relayprotocol/relay-docs
 * references/api/api_core_concepts/handling-errors.mdx, f0bbe935), nothing else; relay-kit's generated types only
 * say `errorCode?: string` (packages/sdk/src/types/api.ts). Codes not listed here fall back by status (other 4xx:
 * route_unavailable; 401/403, 429, 5xx: provider_unavailable).
 * - REQUEST_TIMED_OUT and RPC_HTTP_ERROR are "transient upstream infrastructure issues ... Retry with backoff",
 *   returned with a status the page does not give; PRICE_FETCH_FAILED and SERVICE_UNAVAILABLE come with 503.
 */
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
  providerUnavailable: ['REQUEST_TIMED_OUT', 'RPC_HTTP_ERROR', 'PRICE_FETCH_FAILED', 'SERVICE_UNAVAILABLE'],
};
