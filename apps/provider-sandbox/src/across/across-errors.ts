import { type DialectErrors } from '../faults/with-provider-faults';
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
import { DepositNotFoundError } from './deposit-not-found-error';
import { IndexerQueryError } from './indexer-query-error';

/**
 * Across's error body, `AcrossApiError.toJSON()` (across-protocol/frontend api/_errors.ts):
 * `{type:"AcrossApiError", code, status, message, param?, id}`. `code` is left out when undefined, as JSON
 * drops it (TokenNotFoundError and UnauthorizedError carry none).
 */
export function acrossError(
  status: number,
  code: string | undefined,
  message: string,
  param?: string,
  headers?: Record<string, string>,
): SandboxReply {
  return jsonReply(
    status,
    {
      type: 'AcrossApiError',
      ...(code ? { code } : {}),
      status,
      message,
      ...(param ? { param } : {}),
      id: randomId(10).slice(2),
    },
    headers,
  );
}

/**
 * Across's server defines `TOO_MANY_REQUESTS: 429` but no code for it and never raises it (api/_errors.ts): its
 * rate limit sits in front of the app, with a body Across does not publish. Assumed here: an AcrossApiError
 * without a code, plus a Retry-After header (docs/providers.md lists this as unverified).
 */
function acrossRateLimited(retryAfterSeconds: number): SandboxReply {
  return acrossError(429, undefined, 'Too many requests', undefined, {
    'retry-after': String(retryAfterSeconds),
  });
}

/** The "Status: 50X" codes of api/_errors.ts, by the status each is raised with (503 has none: the sandbox's). */
const SERVER_CODES: Readonly<Record<number, string>> = {
  502: 'UPSTREAM_HTTP_ERROR',
  503: 'UPSTREAM_HTTP_ERROR',
  504: 'UPSTREAM_GATEWAY_TIMEOUT',
};

export const acrossErrors: DialectErrors = {
  serverError(status) {
    if (status === 429) return acrossRateLimited(1);
    return acrossError(status, SERVER_CODES[status] ?? 'UNEXPECTED_ERROR', 'Upstream service unavailable');
  },
  fromError(error) {
    if (error instanceof RateLimitedError) return acrossRateLimited(error.retryAfterSeconds);
    // The indexer (proxied under /deposit*) has its own, older error shape.
    if (error instanceof DepositNotFoundError) {
      return jsonReply(404, { error: 'DepositNotFoundException', message: error.message });
    }
    if (error instanceof IndexerQueryError) {
      return jsonReply(400, { error: error.errorName, message: error.message });
    }
    if (error instanceof RequestFieldError) {
      return acrossError(
        400,
        error.reason === 'missing' ? 'MISSING_PARAM' : 'INVALID_PARAM',
        error.message,
        error.field,
      );
    }
    if (error instanceof UnsupportedChainError)
      return acrossError(400, 'INVALID_PARAM', error.message, error.field);
    if (error instanceof SameChainRouteError) {
      return acrossError(400, 'INVALID_PARAM', error.message, 'destinationChainId');
    }
    // TokenNotFoundError: a 404 without a code.
    if (error instanceof UnknownTokenError) {
      return acrossError(
        404,
        undefined,
        `Unable to find tokenDetails for address: ${error.address}, on chain with id: ${error.chainId}`,
      );
    }
    if (error instanceof RouteUnavailableError)
      return acrossError(400, 'ROUTE_NOT_ENABLED', 'Route is not enabled');
    if (error instanceof AmountTooLowError) {
      return acrossError(
        400,
        'AMOUNT_TOO_LOW',
        `Bridge amount ${error.amountIn} is too low to cover bridge fees ${error.feesIn}`,
      );
    }
    if (error instanceof QuoteParamError) {
      const param = { amountIn: 'amount', slippageBps: 'slippage', appFeeBps: 'appFee' }[error.param];
      return acrossError(400, 'INVALID_PARAM', error.message, param);
    }
    return acrossError(500, 'UNEXPECTED_ERROR', 'Unexpected error');
  },
};
