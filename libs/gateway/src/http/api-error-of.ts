import { HttpException } from '@nestjs/common';
import { canonicalizeRequestPath } from '@svc/auth';
import { API_PREFIX, type ErrorCode } from '@svc/contract';
import { unsupportedMediaType } from '../pipeline/request-checks';
import { ApiError } from './api-error';
import { allowedMethods } from './route-table';

/**
 * The ApiError a failure is answered with: ours as they are, the framework's by status (unknown route → 404 or
 * 405), anything unexpected as a 500 that says nothing about its cause.
 */
export function apiErrorOf(exception: unknown, method: string, rawUrl: string): ApiError {
  if (exception instanceof ApiError) return exception;
  if (!(exception instanceof HttpException)) {
    return new ApiError(
      'internal_error',
      'an unexpected error occurred; retry the same request with the same Idempotency-Key',
    );
  }
  const path = rawUrl.split('?')[0] ?? '';
  // A dot segment or a bad escape can keep a request from routing (404) or its parameters from decoding (400)
  // before the pipeline runs; it still gets the auth code the spec names for a rejected path form.
  const canonical = canonicalizeRequestPath(rawUrl);
  if (path.startsWith(`${API_PREFIX}/`) && !canonical.ok) {
    return new ApiError(
      'external_auth_request_invalid',
      `The request path is not accepted (${canonical.reason}).`,
    );
  }
  const status = exception.getStatus();
  if (status === 404) {
    const allowed = allowedMethods(path);
    if (allowed.length && !allowed.includes(method)) {
      return new ApiError('method_not_allowed', `${method} is not allowed on ${path}`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    return new ApiError('route_not_found', `no endpoint ${method} ${path}${prefixHint(method, path)}`);
  }
  // Fastify refuses a Content-Type that is no media type before any route runs.
  if (status === 415) return unsupportedMediaType();
  const byStatus: Record<number, ErrorCode> = {
    413: 'payload_too_large',
    400: 'invalid_request_body',
  };
  return new ApiError(
    byStatus[status] ?? 'internal_error',
    byStatus[status] ? exception.message : 'an unexpected error occurred',
  );
}

/**
 * A known route asked for without the API prefix (`GET /ping`, as a newcomer types it): the message names the path
 * that exists (issue 25 item 2). Empty otherwise.
 */
function prefixHint(method: string, path: string): string {
  if (path.startsWith(`${API_PREFIX}/`) || !path.startsWith('/')) return '';
  const prefixed = `${API_PREFIX}${path}`;
  const allowed = allowedMethods(prefixed);
  if (allowed.length === 0) return '';
  const shown = allowed.includes(method) ? method : allowed[0];
  return `: the API's paths start with ${API_PREFIX} (${shown} ${prefixed.replace(/\/$/, '')})`;
}
