import { ValidateBy, type ValidationOptions } from 'class-validator';

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** An absolute http: or https: URL; whether it is the partner's URL is a policy check made later. */
export function IsHttpUrl(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isHttpUrl', validator: { validate: (value: unknown) => isHttpUrl(value) } },
    options,
  );
}
