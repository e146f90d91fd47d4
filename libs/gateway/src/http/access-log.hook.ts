import { type onResponseHookHandler } from 'fastify';
import { type Logger } from '@svc/platform';
import { partnerOf } from './request-partner';

/**
 * One JSON line per request once the response is sent: method, path (query dropped), status, duration,
 * request id and, when authenticated, the partner. Headers and bodies are never logged.
 */
export function accessLog(logger: Logger): onResponseHookHandler {
  return (request, reply, done) => {
    logger.info(
      {
        requestId: request.id,
        partnerId: partnerOf(request),
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 1000) / 1000,
      },
      'http request',
    );
    done();
  };
}
