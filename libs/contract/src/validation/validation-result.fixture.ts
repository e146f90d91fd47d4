import { type ErrorCode } from '../errors/error-codes';
import { type ValidationResult } from './validation-result';

/** `[code, field]` pairs in reported order, or [] when the request was accepted. */
export function errorsOf<T>(result: ValidationResult<T>): [ErrorCode, string][] {
  return result.ok ? [] : result.errors.map((error): [ErrorCode, string] => [error.code, error.field]);
}

/** The validated value; fails the test with the reported errors when the request was rejected. */
export function valueOf<T>(result: ValidationResult<T>): T {
  if (!result.ok) throw new Error(`expected a valid request, got ${JSON.stringify(result.errors)}`);
  return result.value;
}
