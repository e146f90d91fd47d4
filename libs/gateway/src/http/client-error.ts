import { type Socket } from 'node:net';
import { type ErrorCode } from '@svc/contract';
import { type Logger } from '@svc/platform';
import { writeRawErrorResponse } from './raw-error-response';

/** The refusal for an error Node's HTTP parser (llhttp) or its timers raise before a request exists. */
export function clientErrorRefusal(err: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'request_header_fields_too_large',
        message: 'the request line and headers exceed 16 KiB',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'the request did not arrive within the server timeout' };
    case 'HPE_PAUSED_H2_UPGRADE':
      return { code: 'malformed_http_request', message: 'this port speaks HTTP/1.1 only, not HTTP/2' };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_STRICT':
      return { code: 'malformed_http_request', message: 'the chunked body framing is malformed' };
    case undefined:
    default:
      return { code: 'malformed_http_request', message: 'the HTTP request could not be parsed' };
  }
}

/**
 * The server's 'clientError' handler (Fastify's `clientErrorHandler`): Node would answer a malformed request, an
 * oversized header block, a bad chunk, an HTTP/2 preface or a timed-out request with a bare status line; this writes
 * the error envelope with a stable code instead, then closes the connection. A reset or already-closed socket gets
 * nothing (there is no one to answer). Counted in the log, never with the request bytes.
 */
export function clientErrorHandler(options: {
  apiVersionHeader: boolean;
  logger: Logger;
}): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = clientErrorRefusal(err);
    options.logger.info({ code: refusal.code, parserError: err.code }, 'http request refused by the parser');
    writeRawErrorResponse(socket, refusal, options);
  };
}
