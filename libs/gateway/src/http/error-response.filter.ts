import { STATUS_CODES } from 'node:http';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { canonicalizeRequestPath } from '@svc/auth';
import { API_PREFIX, API_VERSION, type ErrorCode, type ErrorResponse, HEADER } from '@svc/contract';
import { type Logger } from '@svc/platform';
import { type Request, type Response } from 'express';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { ApiError } from './api-error';
import { allowedMethods } from './route-table';

/**
 * Renders every failure as an ErrorResponse with `X-Service-Api-Version: 1`: our ApiErrors, Nest's own
 * (unknown route → 404 or 405) and anything unexpected (500, logged, never echoed: no stack, no secret).
 */
@Catch()
export class ErrorResponseFilter implements ExceptionFilter {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? '';
    const error = this.toApiError(exception, req.method, path, req.originalUrl ?? req.url ?? '');
    if (error.status >= 500 && error.code !== 'not_implemented' && error.code !== 'dependency_unavailable') {
      this.logger.error({ err: exception, method: req.method, path }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const body: ErrorResponse = {
      apiVersion: API_VERSION,
      error: STATUS_CODES[error.status] ?? 'Error',
      code: error.code,
      message: error.message,
      path,
      ...(error.extra.details ? { details: error.extra.details } : {}),
    };
    res.status(error.status).setHeader(HEADER.apiVersion, API_VERSION);
    if (error.extra.retryAfterSeconds !== undefined)
      res.setHeader('Retry-After', String(error.extra.retryAfterSeconds));
    for (const [name, value] of Object.entries(error.extra.headers ?? {})) res.setHeader(name, value);
    res.json(body);
  }

  private toApiError(exception: unknown, method: string, path: string, rawUrl: string): ApiError {
    if (exception instanceof ApiError) return exception;
    if (!(exception instanceof HttpException)) {
      return new ApiError(
        'internal_error',
        'an unexpected error occurred; retry the same request with the same Idempotency-Key',
      );
    }
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
      return new ApiError('route_not_found', `no endpoint ${method} ${path}`);
    }
    const byStatus: Record<number, ErrorCode> = {
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      400: 'invalid_request_body',
    };
    return new ApiError(
      byStatus[status] ?? 'internal_error',
      byStatus[status] ? exception.message : 'an unexpected error occurred',
    );
  }
}
