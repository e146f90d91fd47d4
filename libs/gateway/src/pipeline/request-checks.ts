import { type IncomingHttpHeaders } from 'node:http';
import { type FieldError, HEADER } from '@svc/contract';
import { ApiError } from '../http/api-error';

/** Transport rules that hold before anyone is authenticated (they reveal nothing about partners). */
export function checkTransport(method: string, headers: IncomingHttpHeaders, body: Buffer): void {
  checkTransportHeaders(method, headers, body.length > 0);
}

/**
 * The transport rules, told by the headers alone (`hasBody`: the request carries or declares a body), so that the
 * edge can apply them before it reads a body.
 */
export function checkTransportHeaders(method: string, headers: IncomingHttpHeaders, hasBody: boolean): void {
  const encoding = headers[HEADER.contentEncoding];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new ApiError(
      'content_encoding_unsupported',
      `Content-Encoding "${encoding}" is not supported; send identity bytes`,
    );
  }
  if (method === 'GET' && hasBody) {
    throw new ApiError('request_body_not_allowed', 'a GET request must not carry a body');
  }
  if (method === 'GET' && headers[HEADER.idempotencyKey] !== undefined) {
    throw new ApiError(
      'idempotency_key_not_allowed',
      'a GET request must not carry an Idempotency-Key header',
    );
  }
}

export function requireIdempotencyKey(headers: IncomingHttpHeaders): string {
  const key = headers[HEADER.idempotencyKey];
  if (key === undefined || key === '')
    throw new ApiError('idempotency_key_required', 'POST requests need an Idempotency-Key header');
  if (typeof key !== 'string' || key.length > 255) {
    throw new ApiError('idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 characters');
  }
  return key;
}

/** Parses a POST body as JSON (an empty body is "no body"). Bad UTF-8 counts as malformed JSON. */
export function parseJsonBody(headers: IncomingHttpHeaders, body: Buffer): unknown {
  if (body.length === 0) return undefined;
  const type = (headers[HEADER.contentType] ?? '').toLowerCase().replace(/\s+/g, '');
  if (type !== 'application/json' && type !== 'application/json;charset=utf-8') throw unsupportedMediaType();
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new ApiError('invalid_json', 'the request body is not well-formed UTF-8 JSON');
  }
}

/** A body that is not `application/json` (also a Content-Type that is no media type at all). */
export function unsupportedMediaType(): ApiError {
  return new ApiError('unsupported_media_type', 'send the body as Content-Type: application/json');
}

export function validationFailure(errors: FieldError[]): ApiError {
  const [first] = errors;
  const summary = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return new ApiError(first?.code ?? 'invalid_request_body', summary || 'invalid request body', {
    details: errors,
  });
}
