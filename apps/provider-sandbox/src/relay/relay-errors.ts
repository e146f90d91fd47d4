import { type DialectErrors } from '../faults/with-provider-faults';
import { ApiKeyMissingError } from '../http/api-key-missing-error';
import { randomId } from '../http/random-id';
import { RateLimitedError } from '../http/rate-limited-error';
import { RequestFieldError } from '../http/request-field-error';
import { jsonReply, type SandboxReply } from '../http/sandbox-http';
import {
  AmountTooLowError,
  QuoteParamError,
  RouteUnavailableError,
  SameChainRouteError,
  UnknownTokenError,
  UnsupportedChainError,
} from '../pricing/quote-errors';

/** Relay's 400 body (reference §1.6): `{message, errorCode}`. */
export function relayError(status: number, errorCode: string, message: string): SandboxReply {
  return jsonReply(status, { message, errorCode });
}

/**
 * Relay's 429: `{ message }` only (relay-kit packages/sdk/src/types/api.ts, "/quote/v2" 429). The Retry-After header
 * is the sandbox's: Relay's docs name none for these endpoints (relay-docs handling-rate-limits.mdx says back off
 * exponentially; the changelog says only `/requests/v2` sends none), so clients must cope with both.
 */
function relayRateLimited(retryAfterSeconds: number): SandboxReply {
  return jsonReply(429, { message: 'Rate limit exceeded' }, { 'retry-after': String(retryAfterSeconds) });
}

/**
 * The documented code for each request field (relay-docs references/api/api_core_concepts/handling-errors.mdx and
 * the 2026-07-22 changelog: an invalid `recipient` is INVALID_ADDRESS; INVALID_RECIPIENT is a token contract as
 * recipient). Relay documents no code for a malformed `amount`, `tradeType` or `appFees`: those answer
 * `{message}` alone.
 */
const FIELD_CODES: Readonly<Record<string, string>> = {
  user: 'INVALID_ADDRESS',
  refundTo: 'INVALID_ADDRESS',
  recipient: 'INVALID_ADDRESS',
  originCurrency: 'INVALID_INPUT_CURRENCY',
  destinationCurrency: 'INVALID_OUTPUT_CURRENCY',
  originChainId: 'UNSUPPORTED_CHAIN',
  destinationChainId: 'UNSUPPORTED_CHAIN',
  slippageTolerance: 'INVALID_SLIPPAGE_TOLERANCE',
};

export const relayErrors: DialectErrors = {
  serverError(status) {
    if (status === 429) return relayRateLimited(1);
    if (status === 503) return relayError(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable');
    return jsonReply(status, {
      message: 'Internal server error',
      errorCode: 'UNKNOWN_ERROR',
      requestId: randomId(),
    });
  },
  fromError(error) {
    if (error instanceof RateLimitedError) return relayRateLimited(error.retryAfterSeconds);
    if (error instanceof ApiKeyMissingError) return relayError(401, 'UNAUTHORIZED', 'Unauthorized');
    if (error instanceof RequestFieldError) {
      const code = FIELD_CODES[error.field];
      return code ? relayError(400, code, error.message) : jsonReply(400, { message: error.message });
    }
    if (error instanceof UnsupportedChainError) return relayError(400, 'UNSUPPORTED_CHAIN', error.message);
    if (error instanceof SameChainRouteError) return relayError(400, 'UNSUPPORTED_ROUTE', error.message);
    // Changelog 2026-07-28: "quote requests for token pairs that cannot be priced return 400 UNSUPPORTED_CURRENCY".
    if (error instanceof UnknownTokenError) return relayError(400, 'UNSUPPORTED_CURRENCY', error.message);
    // The docs' own example body (handling-errors.mdx "No Routes Found").
    if (error instanceof RouteUnavailableError)
      return relayError(400, 'NO_SWAP_ROUTES_FOUND', 'No routes found');
    if (error instanceof AmountTooLowError) return relayError(400, 'AMOUNT_TOO_LOW', 'Amount is too low');
    if (error instanceof QuoteParamError) {
      // A zero amount is below any minimum; an app fee out of range has no documented code.
      if (error.param === 'slippageBps') return relayError(400, 'INVALID_SLIPPAGE_TOLERANCE', error.message);
      if (error.param === 'amountIn') return relayError(400, 'AMOUNT_TOO_LOW', error.message);
      return jsonReply(400, { message: error.message });
    }
    return jsonReply(500, {
      message: 'Internal server error',
      errorCode: 'UNKNOWN_ERROR',
      requestId: randomId(),
    });
  },
};
