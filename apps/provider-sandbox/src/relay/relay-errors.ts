import { type DialectErrors } from '../faults/with-provider-faults';
import { ApiKeyMissingError } from '../http/api-key-missing-error';
import { randomId } from '../http/random-id';
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

const FIELD_CODES: Readonly<Record<string, string>> = {
  user: 'INVALID_ADDRESS',
  refundTo: 'INVALID_ADDRESS',
  recipient: 'INVALID_RECIPIENT',
  originCurrency: 'INVALID_INPUT_CURRENCY',
  destinationCurrency: 'INVALID_OUTPUT_CURRENCY',
  originChainId: 'UNSUPPORTED_CHAIN',
  destinationChainId: 'UNSUPPORTED_CHAIN',
  slippageTolerance: 'INVALID_SLIPPAGE_TOLERANCE',
  amount: 'AMOUNT_TOO_LOW',
};

export const relayErrors: DialectErrors = {
  serverError(status) {
    if (status === 429) return jsonReply(429, { message: 'Rate limit exceeded' });
    if (status === 503) return relayError(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable');
    return jsonReply(status, {
      message: 'Internal server error',
      errorCode: 'UNKNOWN_ERROR',
      requestId: randomId(),
    });
  },
  fromError(error) {
    if (error instanceof ApiKeyMissingError) return relayError(401, 'UNAUTHORIZED', 'Unauthorized');
    if (error instanceof RequestFieldError) {
      return relayError(400, FIELD_CODES[error.field] ?? 'INVALID_INPUT', error.message);
    }
    if (error instanceof UnsupportedChainError) return relayError(400, 'UNSUPPORTED_CHAIN', error.message);
    if (error instanceof SameChainRouteError) return relayError(400, 'UNSUPPORTED_ROUTE', error.message);
    if (error instanceof UnknownTokenError || error instanceof RouteUnavailableError) {
      return relayError(400, 'NO_SWAP_ROUTES_FOUND', 'No routes found');
    }
    if (error instanceof AmountTooLowError) return relayError(400, 'AMOUNT_TOO_LOW', 'Amount is too low');
    if (error instanceof QuoteParamError) {
      const code = {
        slippageBps: 'INVALID_SLIPPAGE_TOLERANCE',
        amountIn: 'AMOUNT_TOO_LOW',
        appFeeBps: 'INVALID_INPUT',
      };
      return relayError(400, code[error.param], error.message);
    }
    return jsonReply(500, {
      message: 'Internal server error',
      errorCode: 'UNKNOWN_ERROR',
      requestId: randomId(),
    });
  },
};
