import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * A string of `min` to `max` characters (code points). class-validator's `Length` leaves variation
 * selectors uncounted, so a megabyte of them would pass a 64-character bound on a field we store.
 */
export function isStringOfLength(value: unknown, min: number, max: number): value is string {
  if (typeof value !== 'string' || value.length > 2 * max) return false;
  const length = [...value].length;
  return length >= min && length <= max;
}

export function IsStringOfLength(min: number, max: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringOfLength',
      constraints: [min, max],
      validator: { validate: (value: unknown) => isStringOfLength(value, min, max) },
    },
    options,
  );
}
