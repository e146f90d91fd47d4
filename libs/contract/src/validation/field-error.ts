import { type ErrorCode } from '../errors/error-codes';
import { type FieldError } from '../errors/error-response';

/** `rule` completes a sentence that starts with the field path: "sources[2].amount must be ...". */
export function fieldError(code: ErrorCode, field: string, rule: string): FieldError {
  return { code, field, message: field === '' ? rule : `${field} ${rule}` };
}

/**
 * Whether `path`, or an object or array containing it, was already rejected. Cross-field rules skip such
 * values: their shape is unknown and the partner already has the more precise error.
 */
export function isRejected(errors: readonly FieldError[], path: string): boolean {
  return errors.some(
    (error) =>
      error.field === path || path.startsWith(`${error.field}.`) || path.startsWith(`${error.field}[`),
  );
}
