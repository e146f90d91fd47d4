import { type ValidationResult } from './validation-result';

/** The empty path names the body itself. */
export function invalidRequestBody<T>(): ValidationResult<T> {
  return {
    ok: false,
    errors: [{ code: 'invalid_request_body', field: '', message: 'The request body must be a JSON object' }],
  };
}
