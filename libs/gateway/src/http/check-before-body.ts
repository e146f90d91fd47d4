import { checkAuthHeaders } from '@svc/auth';
import { API_PREFIX } from '@svc/contract';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { checkTransportHeaders } from '../pipeline/request-checks';
import { ApiError } from './api-error';
import { declaresBody } from './read-raw-body';
import { sendErrorResponse } from './send-error-response';

/**
 * Headers before bodies (issue 23, N-M4): a request to the partner API is checked, before any of its body is read,
 * by what its headers alone tell: the transport rules (Content-Encoding, a GET that declares a body or an
 * Idempotency-Key) and the form of its authentication headers (a partner id, a fresh timestamp, a signature, a v2
 * nonce; `checkAuthHeaders`). Each answers what the whole pipeline would, and none depends on whether the partner
 * exists (M9). A refused request's body is never read: the answer closes the connection. The signature itself covers
 * the body, so it is verified once the body is read, within the body budget. Requests to no route are left to the
 * router's 404/405.
 */
export function checkBeforeBody(fastify: FastifyInstance, now: () => number): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.is404 || !request.url.startsWith(`${API_PREFIX}/`)) return done();
    const hasBody = declaresBody(request.headers);
    const refusal = refusalOf(request, hasBody, now());
    if (refusal === null) return done();
    const closing = hasBody
      ? new ApiError(refusal.code, refusal.message, {
          ...refusal.extra,
          headers: { ...refusal.extra.headers, Connection: 'close' },
        })
      : refusal;
    sendErrorResponse(reply, closing, request.url.split('?')[0] ?? '');
  });
}

function refusalOf(request: FastifyRequest, hasBody: boolean, nowMs: number): ApiError | null {
  try {
    checkTransportHeaders(request.method, request.headers, hasBody);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  const auth = checkAuthHeaders(request.url, request.raw.rawHeaders, nowMs);
  return auth.ok ? null : new ApiError(auth.code, auth.message);
}
