import { type DialectErrors } from '../faults/with-provider-faults';
import { RateLimitedError } from '../http/rate-limited-error';
import { RequestFieldError } from '../http/request-field-error';
import { jsonReply, type SandboxReply } from '../http/sandbox-http';
import {
  QuoteParamError,
  RouteUnavailableError,
  SameChainRouteError,
  UnknownTokenError,
  UnsupportedChainError,
} from '../pricing/quote-errors';
import { RATE_LIMIT_RETRY_AFTER_SECONDS } from '../scenarios/quote-scenarios';
import { ApiKeyMissingError } from '../http/api-key-missing-error';
import { AmountTooSmallError } from './amount-too-small-error';
import { ApiKeyRefusedError } from './mayan-explorer-key';
import { SwapNotFoundError } from './swap-not-found-error';

/**
 * A refusal Mayan documents no code for. swap-sdk v15.2.0 src/api.ts reads any non-2xx body as
 * `{code, msg | message, data}` and reports a missing code as 0; mayan-finance/wormhole-sdk-route src/index.ts falls
 * back to `data.msg`. So the sandbox answers `{msg}` alone and invents no code.
 */
export function mayanRefusal(status: number, msg: string): SandboxReply {
  return jsonReply(status, { msg });
}

/**
 * A 429. Mayan publishes neither body nor headers for it. Its APIs are NestJS (the explorer's Swagger operation ids,
 * e.g. `SwapDetailsController_getSwapByTrxHash`, linked from the swap-sdk README), whose throttler answers
 * `{statusCode: 429, message: "ThrottlerException: Too Many Requests"}` with a `Retry-After` header in seconds
 * (nestjs/throttler src/throttler.guard.ts). That is what the sandbox sends, an inference rather than a record.
 */
function mayanRateLimited(retryAfterSeconds: number): SandboxReply {
  return jsonReply(
    429,
    { statusCode: 429, message: 'ThrottlerException: Too Many Requests' },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

export const mayanErrors: DialectErrors = {
  serverError(status) {
    if (status === 429) return mayanRateLimited(RATE_LIMIT_RETRY_AFTER_SECONDS);
    // 5xx answers carry `code` or `statusCode` and `message` or `msg` (swap-sdk src/api.ts `check5xxError`).
    return jsonReply(status, { statusCode: status, message: 'Internal server error' });
  },
  fromError(error) {
    if (error instanceof RateLimitedError) return mayanRateLimited(error.retryAfterSeconds);
    // mayan-finance/wormhole-sdk-route src/index.ts (5e17c84) quotes this body; its HTTP status is not stated.
    if (error instanceof AmountTooSmallError) {
      return jsonReply(400, {
        code: 'AMOUNT_TOO_SMALL',
        data: { minAmountIn: error.minAmountIn },
        message: error.message,
      });
    }
    if (error instanceof SwapNotFoundError) return mayanRefusal(404, 'Swap not found');
    // NestJS's own refusals (the explorer is NestJS, see above): 401 without a key, 403 for one it does not know.
    if (error instanceof ApiKeyMissingError)
      return jsonReply(401, { statusCode: 401, message: 'Unauthorized' });
    if (error instanceof ApiKeyRefusedError) return jsonReply(403, { statusCode: 403, message: 'Forbidden' });
    if (
      error instanceof RequestFieldError ||
      error instanceof UnsupportedChainError ||
      error instanceof QuoteParamError
    ) {
      return mayanRefusal(400, error.message);
    }
    if (
      error instanceof SameChainRouteError ||
      error instanceof UnknownTokenError ||
      error instanceof RouteUnavailableError
    ) {
      // The SDK's own fallback message for a refusal without one.
      return mayanRefusal(400, 'Route not found');
    }
    return jsonReply(500, { statusCode: 500, message: 'Internal server error' });
  },
};
