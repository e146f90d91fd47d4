import { ValidateBy, type ValidationOptions } from 'class-validator';

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export const DECIMAL_STRING_RULE = 'must be a non-negative decimal string such as "1250.5"';

/** USD values are strings so that they are never rounded through a float on the way in. */
export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL.test(value);
}

/** For a valid decimal string: whether any digit is non-zero ("0.00" is not positive). */
export function isPositiveDecimalString(value: string): boolean {
  return /[1-9]/.test(value);
}

export function IsDecimalString(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isDecimalString', validator: { validate: (value: unknown) => isDecimalString(value) } },
    options,
  );
}
