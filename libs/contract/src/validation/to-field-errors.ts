import { type ValidationError } from 'class-validator';
import { type FieldError } from '../errors/error-response';
import { codeOfContext } from './coded';
import { fieldError } from './field-error';
import { indexPath, propertyPath } from './field-path';

/** class-validator's constraint name for a property the DTO does not declare. */
const WHITELIST_CONSTRAINT = 'whitelistValidation';

/**
 * Flattens class-validator's error tree into one FieldError per rejected field, with a JSON path. A
 * constraint without a registry code is a bug in a DTO (a test guards against it); the fallback code keeps
 * the response a 400 rather than a crash.
 */
export function toFieldErrors(
  errors: readonly ValidationError[],
  parent = '',
  parentIsArray = false,
): FieldError[] {
  return errors.flatMap((error) => {
    const field = parentIsArray ? indexPath(parent, error.property) : propertyPath(parent, error.property);
    const [first] = Object.entries(error.constraints ?? {});
    const own: FieldError[] = [];
    if (first !== undefined) {
      const [constraint, message] = first;
      own.push(
        constraint === WHITELIST_CONSTRAINT
          ? unknownField(field)
          : fieldError(codeOfContext(error.contexts?.[constraint]) ?? 'invalid_request_body', field, message),
      );
    }
    return [...own, ...toFieldErrors(error.children ?? [], field, Array.isArray(error.value))];
  });
}

export function unknownField(field: string): FieldError {
  return fieldError('unknown_field', field, 'is not a field of this request');
}
