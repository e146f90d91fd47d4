import { jsonBoundsProblem } from './json-bounds';
import { isJsonObject, type JsonObject } from './json-object';
import { type ValidationResult } from './validation-result';

/** The empty path names the body itself. */
export function invalidRequestBody<T>(
  message = 'The request body must be a JSON object',
): ValidationResult<T> {
  return { ok: false, errors: [{ code: 'invalid_request_body', field: '', message }] };
}

/** The body as a JSON object within the bounds (JSON_LIMITS), or the refusal to answer with. */
export function bodyObject(body: unknown): { json: JsonObject } | { refused: ValidationResult<never> } {
  if (!isJsonObject(body)) return { refused: invalidRequestBody() };
  const problem = jsonBoundsProblem(body);
  return problem === null ? { json: body } : { refused: invalidRequestBody(`The request body ${problem}`) };
}
