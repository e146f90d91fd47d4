import { ValidateIf } from 'class-validator';

/**
 * Skips a field's rules only when it is absent. class-validator's `@IsOptional` also skips `null`, which
 * would let `"symbol": null` through fields the spec does not declare nullable; nullable fields use
 * `@IsOptional` on purpose.
 */
export function IsOptionalField(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
