import { ValidateBy, type ValidationOptions } from 'class-validator';

const POSITIVE_INTEGER = /^[1-9][0-9]*$/;
const UINT256_MAX = 2n ** 256n - 1n;
/** 2^256-1 has 78 digits; longer strings are rejected before BigInt parses them. */
const UINT256_MAX_DIGITS = UINT256_MAX.toString().length;

export const RAW_AMOUNT_RULE =
  'must be a positive base-10 integer string in token base units (no sign, decimal point, leading zero or whitespace) of at most 2^256-1';

/** Amounts travel as strings so that no JSON number loses precision on the way; a number is rejected. */
export function isRawAmount(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= UINT256_MAX_DIGITS &&
    POSITIVE_INTEGER.test(value) &&
    BigInt(value) <= UINT256_MAX
  );
}

export function IsRawAmount(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isRawAmount', validator: { validate: (value: unknown) => isRawAmount(value) } },
    options,
  );
}
