import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthenticationError,
  ConflictError,
  IntentApiError,
  isIntentApiError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  toIntentApiError,
  ValidationError,
} from './intent-api-error';

interface ErrorCase {
  code: string;
  status: number;
  example: { message: string; path?: string; details?: unknown[]; requestId: string };
}
const vectors = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', '..', 'sdks', 'vectors', 'errors.json'), 'utf8'),
) as { cases: ErrorCase[]; fieldErrors: { status: number; response: Record<string, unknown> } };

/** The families of sdks/go/errors.go (KindOfStatus, plus the 409 nonce conflict, an authentication error). */
function expectedClass(c: ErrorCase): typeof IntentApiError {
  if (c.code === 'external_auth_nonce_conflict') return AuthenticationError;
  if (c.status === 401 || c.status === 403) return AuthenticationError;
  if (c.status === 404) return NotFoundError;
  if (c.status === 409 || c.status === 422) return ConflictError;
  if (c.status === 429) return RateLimitedError;
  if (c.status === 408 || c.status >= 500) return ServerError;
  return ValidationError;
}

describe('typed API errors over sdks/vectors/errors.json', () => {
  it.each(vectors.cases.map((c) => [c.code, c] as const))('%s', (_code, c) => {
    const body = { ...c.example, someFutureField: 1 };
    const error = toIntentApiError({ status: c.status, headers: { 'retry-after': '2' }, body });
    expect(error).toBeInstanceOf(expectedClass(c));
    expect(error).toBeInstanceOf(IntentApiError);
    expect(error).toBeInstanceOf(Error);
    expect({
      status: error.status,
      code: error.code,
      message: error.message,
      path: error.path,
      requestId: error.requestId,
      details: error.details,
      retryAfterSeconds: error.retryAfterSeconds,
    }).toEqual({
      status: c.status,
      code: c.code,
      message: c.example.message,
      path: c.example.path,
      requestId: c.example.requestId,
      details: c.example.details ?? [],
      retryAfterSeconds: 2,
    });
    expect(error.raw).toBe(body);
    expect(isIntentApiError(error, c.code as never)).toBe(true);
  });

  it('keeps the field errors of a real rejected quote, keyed by field', () => {
    const { status, response } = vectors.fieldErrors;
    const error = toIntentApiError({ status, headers: {}, body: response });
    expect(error).toBeInstanceOf(ValidationError);
    const details = response['details'] as { field?: string }[];
    expect(details.length).toBeGreaterThan(0);
    expect(error.details).toEqual(details);
    for (const d of details.filter((x) => x.field)) expect(error.fieldErrors[d.field!]).toContainEqual(d);
  });

  it('classifies an unknown code by its status and a body that is not an envelope as http_<status>', () => {
    const future = toIntentApiError({ status: 409, headers: {}, body: { code: 'some_future_conflict' } });
    expect(future).toBeInstanceOf(ConflictError);
    expect(future.code).toBe('some_future_conflict');
    const proxy = toIntentApiError({ status: 502, headers: {}, body: '<html>Bad gateway</html>' });
    expect(proxy).toBeInstanceOf(ServerError);
    expect([proxy.code, proxy.message]).toEqual(['http_502', '<html>Bad gateway</html>']);
  });

  it('isIntentApiError narrows by code and refuses other errors', () => {
    const error: unknown = toIntentApiError({
      status: 404,
      headers: {},
      body: { code: 'attempt_not_found' },
    });
    expect(isIntentApiError(error, 'attempt_not_found')).toBe(true);
    expect(isIntentApiError(error, 'transaction_not_found')).toBe(false);
    expect(isIntentApiError(new Error('x'))).toBe(false);
    if (isIntentApiError(error, 'attempt_not_found')) {
      const code: 'attempt_not_found' = error.code;
      expect(code).toBe('attempt_not_found');
    }
  });
});
