import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * At most 30 integer and 18 fraction digits (review M2): USD figures become fixed-point bigints scaled to the longest
 * fraction, so an unbounded one (250 000 digits fit a body) would cost seconds of arithmetic per request.
 */
const DECIMAL = /^(0|[1-9][0-9]{0,29})(\.[0-9]{1,18})?$/;

export const DECIMAL_STRING_RULE =
  'must be a non-negative decimal string such as "1250.5", with at most 30 integer and 18 fraction digits';

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
