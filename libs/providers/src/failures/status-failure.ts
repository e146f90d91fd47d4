import { type HttpResult } from '../http/http-result';
import { type StatusFailure, type StatusResult } from '../leg-progress';
import { type RoutableProvider } from '../provider-adapter.port';
import { readErrorAnswer } from './error-answer';

export function statusFailure(
  reasonCode: StatusFailure['reasonCode'],
  reason: string,
  httpStatus: number | null = null,
  retryAfterMs?: number,
): StatusResult {
  return {
    ok: false,
    failure: { reasonCode, reason, httpStatus, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
  };
}

/** Every HttpResult that is not a usable 2xx JSON answer, as a status failure (404 = not_found). */
export function statusFailureFromHttp(provider: RoutableProvider, result: HttpResult): StatusResult {
  switch (result.kind) {
    case 'timeout':
      return statusFailure('provider_timeout', `${provider} status did not answer in time`);
    case 'network':
      return statusFailure('provider_unavailable', `${provider} status unreachable (${result.detail})`);
    case 'unreadable':
      return statusFailure(
        'provider_unavailable',
        `${provider} status answered ${result.status}: ${result.detail}`,
        result.status,
        result.retryAfterMs,
      );
    case 'json': {
      const { code, message } = readErrorAnswer(result.body);
      const reason = `${provider} status answered ${result.status}${code === null ? '' : ` ${code}`}${message === null ? '' : `: ${message}`}`;
      return statusFailure(
        result.status === 404 ? 'not_found' : 'provider_unavailable',
        reason,
        result.status,
        result.retryAfterMs,
      );
    }
  }
}
