import { type HttpResult } from '../http/http-result';
import { type RoutableProvider } from '../provider-adapter.port';
import { type QuoteFailureReason, type QuoteResult } from '../provider-quote';
import { classifyQuoteError, type QuoteErrorCodes } from './classify-quote-error';
import { readErrorAnswer } from './error-answer';

export function quoteFailure(
  provider: RoutableProvider,
  reasonCode: QuoteFailureReason,
  reason: string,
  detail: { httpStatus?: number | null; providerCode?: string | null; retryAfterMs?: number } = {},
): QuoteResult {
  return {
    ok: false,
    failure: {
      provider,
      reasonCode,
      reason,
      httpStatus: detail.httpStatus ?? null,
      providerCode: detail.providerCode ?? null,
      ...(detail.retryAfterMs === undefined ? {} : { retryAfterMs: detail.retryAfterMs }),
    },
  };
}

/** Every HttpResult that is not a usable 2xx JSON answer, as a failure. */
export function quoteFailureFromHttp(
  provider: RoutableProvider,
  result: HttpResult,
  codes: QuoteErrorCodes,
): QuoteResult {
  switch (result.kind) {
    case 'timeout':
      return quoteFailure(provider, 'provider_timeout', `${provider} did not answer in time`);
    case 'network':
      return quoteFailure(provider, 'provider_unavailable', `${provider} unreachable (${result.detail})`);
    case 'unreadable':
      return quoteFailure(
        provider,
        'provider_unavailable',
        `${provider} answered ${result.status}: ${result.detail}`,
        { httpStatus: result.status, retryAfterMs: result.retryAfterMs },
      );
    case 'json': {
      const { code, message } = readErrorAnswer(result.body);
      const reasonCode = classifyQuoteError(result.status, code, codes);
      const reason = `${provider} answered ${result.status}${code === null ? '' : ` ${code}`}${message === null ? '' : `: ${message}`}`;
      return quoteFailure(provider, reasonCode, reason, {
        httpStatus: result.status,
        providerCode: code,
        retryAfterMs: result.retryAfterMs,
      });
    }
  }
}
