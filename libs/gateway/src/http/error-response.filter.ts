import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { errorLogFields, type Logger } from '@svc/platform';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Observable, throwError } from 'rxjs';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { apiErrorOf } from './api-error-of';
import { sendErrorResponse } from './send-error-response';

/**
 * Renders every failure as an ErrorResponse with `X-Service-Api-Version: 1`: our ApiErrors, Nest's own
 * (unknown route → 404 or 405) and anything unexpected (500, logged, never echoed: no stack, no secret).
 *
 * APP_FILTER is global: in the one-process service (and the gateway's local patterns) it also catches the bus
 * handlers' errors, where there is no HTTP request. There it answers as Nest's own RPC filter does, so an RpcException
 * (the BusHandlerInterceptor's `handler_deadline` for a request dropped past its deadline) reaches the caller with its
 * code, which the gateway answers 503 dependency_unavailable. It used to read the HTTP request of a bus message and
 * throw, and the caller got that TypeError's text: 500 internal_error.
 */
@Catch()
export class ErrorResponseFilter implements ExceptionFilter {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void | Observable<never> {
    if (host.getType() !== 'http') return this.busError(exception);
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const path = req.url.split('?')[0] ?? '';
    const error = apiErrorOf(exception, req.method, req.url);
    if (error.status >= 500 && error.code !== 'not_implemented' && error.code !== 'dependency_unavailable') {
      this.logger.error({ error: errorLogFields(exception), method: req.method, path }, 'request failed');
    }
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    sendErrorResponse(reply, error, path);
  }

  /** A bus handler's failure as its error reply: an RpcException's own error, anything else a bare internal error. */
  private busError(exception: unknown): Observable<never> {
    if (exception instanceof RpcException) {
      const error = exception.getError();
      return throwError(() =>
        typeof error === 'object' && error !== null ? error : { status: 'error', message: error },
      );
    }
    this.logger.error({ error: errorLogFields(exception) }, 'bus request failed');
    return throwError(() => ({ status: 'error', message: 'Internal server error' }));
  }
}
