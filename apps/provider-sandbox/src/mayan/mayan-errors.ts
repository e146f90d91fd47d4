import { type DialectErrors } from '../faults/with-provider-faults';
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
import { SwapNotFoundError } from './swap-not-found-error';

/** Mayan's non-2xx body (reference §3.6): `{code, message, data?}`; the codes are not documented. */
export function mayanError(status: number, code: string, message: string, data?: unknown): SandboxReply {
  return jsonReply(status, { code, message, ...(data === undefined ? {} : { data }) });
}

export const mayanErrors: DialectErrors = {
  serverError(status) {
    // 5xx answers carry `statusCode` rather than `code` (reference §3.6).
    const message = status === 429 ? 'ThrottlerException: Too Many Requests' : 'Internal server error';
    return jsonReply(status, { statusCode: status, message });
  },
  fromError(error) {
    if (error instanceof SwapNotFoundError) return mayanError(404, 'NOT_FOUND', 'Swap not found');
    if (error instanceof RequestFieldError) return mayanError(400, 'INVALID_PARAMS', error.message);
    if (error instanceof UnsupportedChainError) return mayanError(400, 'UNSUPPORTED_CHAIN', error.message);
    if (error instanceof SameChainRouteError) {
      return mayanError(400, 'UNSUPPORTED_ROUTE', 'Swift does not support same-chain swaps');
    }
    if (error instanceof UnknownTokenError || error instanceof RouteUnavailableError) {
      return mayanError(400, 'ROUTE_NOT_FOUND', 'Route not found');
    }
    if (error instanceof AmountTooLowError) {
      return mayanError(400, 'AMOUNT_TOO_SMALL', 'Amount too small', { feesIn64: error.feesIn.toString() });
    }
    if (error instanceof QuoteParamError) return mayanError(400, 'INVALID_PARAMS', error.message);
    return jsonReply(500, { statusCode: 500, message: 'Internal server error' });
  },
};
