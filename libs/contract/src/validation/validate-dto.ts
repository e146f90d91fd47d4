import { validateSync, type ValidatorOptions } from 'class-validator';
import { type FieldError } from '../errors/error-response';
import { type JsonObject } from './json-object';
import { type DtoClass, type NestedDtoTypes, toDtoInstance } from './to-dto-instance';
import { toFieldErrors, unknownField } from './to-field-errors';

/**
 * whitelist + forbidNonWhitelisted: unknown fields are errors, not silently stripped. stopAtFirstError: one
 * error per field (all constraints of a field share a code) and no nested validation of a value that
 * already failed its type check, such as an array where an object is expected.
 */
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: { target: false, value: true },
};

export interface DtoValidation<T> {
  dto: T;
  errors: FieldError[];
}

/** Validates parsed JSON against a DTO class, synchronously. */
export function validateDto<T extends object>(
  dtoClass: DtoClass<T>,
  body: JsonObject,
  nestedTypes: readonly NestedDtoTypes[],
): DtoValidation<T> {
  const { instance, refusedKeys } = toDtoInstance(dtoClass, body, nestedTypes);
  const errors = [
    ...refusedKeys.map(unknownField),
    ...toFieldErrors(validateSync(instance, VALIDATOR_OPTIONS)),
  ];
  return { dto: instance, errors };
}
