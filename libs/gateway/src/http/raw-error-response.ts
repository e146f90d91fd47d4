import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';
import { API_VERSION, type ErrorCode, type ErrorResponse, HEADER, httpStatusOf } from '@svc/contract';

/**
 * A complete HTTP/1.1 error response written straight to a socket, for refusals made before or outside any
 * request object (the HTTP parser's, the connection cap's): the ErrorResponse envelope, `X-Request-Id` (also as
 * `requestId`), the version header on the public edge, and `Connection: close`, after which the socket is ended.
 */
export function writeRawErrorResponse(
  socket: Socket,
  error: { code: ErrorCode; message: string; retryAfterSeconds?: number },
  options: { apiVersionHeader: boolean },
): void {
  const status = httpStatusOf(error.code);
  const requestId = randomUUID();
  const body: ErrorResponse = {
    apiVersion: API_VERSION,
    error: STATUS_CODES[status] ?? 'Error',
    code: error.code,
    message: error.message,
    path: '',
    requestId,
  };
  const json = JSON.stringify(body);
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    `X-Request-Id: ${requestId}`,
    ...(options.apiVersionHeader ? [`${HEADER.apiVersion}: ${API_VERSION}`] : []),
    ...(error.retryAfterSeconds !== undefined ? [`Retry-After: ${error.retryAfterSeconds}`] : []),
    `Date: ${new Date().toUTCString()}`,
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${json}`);
  // Half-closed: the peer reads the answer, then closes; one that does not is cut off shortly after.
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** How long an ended socket may linger for its peer to read the answer and close. */
const LINGER_MS = 2000;
