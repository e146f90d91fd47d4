import { STATUS_CODES } from 'node:http';
import { API_VERSION, type ErrorResponse, HEADER } from '@svc/contract';
import { type FastifyReply } from 'fastify';
import { type ApiError } from './api-error';

/** Answers with `error` as an ErrorResponse (with the request's id), its headers and `X-Service-Api-Version: 1`. */
export function sendErrorResponse(reply: FastifyReply, error: ApiError, path: string): void {
  const body: ErrorResponse = {
    apiVersion: API_VERSION,
    error: STATUS_CODES[error.status] ?? 'Error',
    code: error.code,
    message: error.message,
    path,
    ...(error.extra.details ? { details: error.extra.details } : {}),
    requestId: reply.request.id,
  };
  reply.status(error.status).header(HEADER.apiVersion, API_VERSION);
  if (error.extra.retryAfterSeconds !== undefined)
    reply.header('Retry-After', String(error.extra.retryAfterSeconds));
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
  void reply.send(body);
}
