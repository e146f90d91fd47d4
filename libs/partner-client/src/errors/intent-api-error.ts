import { type ErrorCode, type FieldError } from '../generated/api-types';

/** The error families, the same six as the Python and Go SDKs' (`sdks/go/errors.go`). */
export type ErrorFamily = 'auth' | 'validation' | 'not_found' | 'conflict' | 'rate_limited' | 'server';

/** What a non-2xx answer looked like on the wire. */
export interface ErrorAnswer {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed body (an ErrorResponse envelope, or whatever else came: text, null). */
  body: unknown;
}

/**
 * An error answered by the API (any non-2xx). Branch on `code` (or the subclass), never on `message`; quote
 * `requestId` to support. A code this SDK does not know yet keeps its string and takes the family of its status.
 */
export class IntentApiError extends Error {
  override name = 'IntentApiError';
  readonly family: ErrorFamily;
  readonly status: number;
  /** The stable code; `http_<status>` when the body was not an ErrorResponse. */
  readonly code: ErrorCode | (string & {});
  /** The envelope's `path` (the request path the service saw). */
  readonly path: string | undefined;
  /** Field-level problems of a 400 (`details` of the envelope), as sent. */
  readonly details: FieldError[];
  readonly requestId: string | undefined;
  /** Seconds from Retry-After (429, 503, 409 idempotency_request_in_progress), when numeric. */
  readonly retryAfterSeconds: number | undefined;
  /** The body as received, unknown fields included. */
  readonly raw: unknown;
  readonly headers: Record<string, string>;

  constructor(family: ErrorFamily, answer: ErrorAnswer) {
    const envelope = isRecord(answer.body) ? answer.body : {};
    const code = typeof envelope['code'] === 'string' && envelope['code'] ? envelope['code'] : undefined;
    const message =
      typeof envelope['message'] === 'string'
        ? envelope['message']
        : typeof answer.body === 'string' && answer.body.trim()
          ? answer.body.trim().slice(0, 500)
          : `HTTP ${answer.status}`;
    super(`${answer.status} ${code ?? `http_${answer.status}`}: ${message}`);
    this.family = family;
    this.status = answer.status;
    this.code = code ?? `http_${answer.status}`;
    this.message = message;
    this.path = typeof envelope['path'] === 'string' ? envelope['path'] : undefined;
    this.details = Array.isArray(envelope['details']) ? (envelope['details'] as FieldError[]) : [];
    this.requestId = typeof envelope['requestId'] === 'string' ? envelope['requestId'] : undefined;
    const retryAfter = Number(answer.headers['retry-after']);
    this.retryAfterSeconds =
      answer.headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0
        ? retryAfter
        : undefined;
    this.raw = answer.body;
    this.headers = answer.headers;
  }

  /** `details` keyed by field (whole-request entries, without a field, are left out). */
  get fieldErrors(): Record<string, FieldError[]> {
    const out: Record<string, FieldError[]> = {};
    for (const d of this.details) if (typeof d.field === 'string') (out[d.field] ??= []).push(d);
    return out;
  }
}

/** 401, 403 and the 409 `external_auth_nonce_conflict`: fix the signing, the clock or the configuration. */
export class AuthenticationError extends IntentApiError {
  override name = 'AuthenticationError';
}
/** 400 and the request-shape refusals (405, 413, 415, 431): the request is wrong; do not retry it unchanged. */
export class ValidationError extends IntentApiError {
  override name = 'ValidationError';
}
/** 404: the id is unknown to this partner. */
export class NotFoundError extends IntentApiError {
  override name = 'NotFoundError';
}
/** 409 and 422: the resource's state or the Idempotency-Key forbids this now. */
export class ConflictError extends IntentApiError {
  override name = 'ConflictError';
}
/** 429: wait `retryAfterSeconds` (the client already retried with backoff before throwing). */
export class RateLimitedError extends IntentApiError {
  override name = 'RateLimitedError';
}
/** 5xx and 408: the service or a dependency failed; retry the same operation (same operationId). */
export class ServerError extends IntentApiError {
  override name = 'ServerError';
}

const CLASSES = {
  auth: AuthenticationError,
  validation: ValidationError,
  not_found: NotFoundError,
  conflict: ConflictError,
  rate_limited: RateLimitedError,
  server: ServerError,
} as const satisfies Record<ErrorFamily, new (family: ErrorFamily, answer: ErrorAnswer) => IntentApiError>;

/** Codes whose family is not the one their status implies. */
const FAMILY_EXCEPTIONS: Partial<Record<ErrorCode, ErrorFamily>> = {
  external_auth_nonce_conflict: 'auth',
};

/** The family of a code, or of the status when the code is unknown (a newer server never breaks a client). */
export function errorFamily(status: number, code?: string): ErrorFamily {
  const exception = code === undefined ? undefined : FAMILY_EXCEPTIONS[code as ErrorCode];
  if (exception) return exception;
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409 || status === 422) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'server';
  return 'validation';
}

/** The typed error of a non-2xx answer. */
export function toIntentApiError(answer: ErrorAnswer): IntentApiError {
  const code =
    isRecord(answer.body) && typeof answer.body['code'] === 'string' ? answer.body['code'] : undefined;
  const family = errorFamily(answer.status, code);
  return new CLASSES[family](family, answer);
}

/** Narrows `error` to an IntentApiError (of that `code`, when given). */
export function isIntentApiError<C extends ErrorCode>(
  error: unknown,
  code?: C,
): error is IntentApiError & { code: C } {
  return error instanceof IntentApiError && (code === undefined || error.code === code);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
