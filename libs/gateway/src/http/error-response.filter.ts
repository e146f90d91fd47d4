import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { errorLogFields, type Logger } from '@svc/platform';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { apiErrorOf } from './api-error-of';
import { sendErrorResponse } from './send-error-response';

/**
 * Renders every failure as an ErrorResponse with `X-Service-Api-Version: 1`: our ApiErrors, Nest's own
 * (unknown route → 404 or 405) and anything unexpected (500, logged, never echoed: no stack, no secret).
 */
@Catch()
export class ErrorResponseFilter implements ExceptionFilter {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
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
}
