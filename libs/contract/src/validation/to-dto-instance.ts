import { indexPath, propertyPath } from './field-path';
import { isJsonObject } from './json-object';

export type DtoClass<T extends object = object> = new () => T;

/** Which properties of a DTO hold nested DTOs (an object or an array of objects). */
export interface NestedDtoTypes {
  target: DtoClass;
  properties: Record<string, DtoClass>;
}

export interface DtoInstance<T> {
  instance: T;
  /** Paths of keys that were not copied because they would alter the instance's prototype or class. */
  refusedKeys: string[];
}

/**
 * Names of Object.prototype members (`__proto__`, `constructor`, `hasOwnProperty`, ...) are refused and
 * reported as unknown fields. Copying `__proto__` or `constructor` would change the prototype or the class
 * class-validator looks its rules up by, and its whitelist looks names up in a plain object, so the others
 * would read an inherited member and pass as declared fields.
 */
const RESERVED_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Builds the DTO instance class-validator needs from parsed JSON. Not a general transformer (class-transformer's
 * plainToInstance, no longer a dependency, rebuilt every nested object, so opaque partner data would not pass
 * through as sent, and threw a TypeError on a nested object with its own `constructor` key). Here only
 * declared nested DTOs are instantiated; every other value is kept as sent, so there is no conversion
 * either (`"10"` stays a string).
 */
export function toDtoInstance<T extends object>(
  dtoClass: DtoClass<T>,
  raw: Record<string, unknown>,
  nestedTypes: readonly NestedDtoTypes[],
  path = '',
): DtoInstance<T> {
  const instance = new dtoClass();
  const refusedKeys: string[] = [];
  const nested = nestedTypes.find((entry) => entry.target === dtoClass)?.properties ?? {};
  for (const [key, value] of Object.entries(raw)) {
    const at = propertyPath(path, key);
    if (RESERVED_KEYS.has(key)) {
      refusedKeys.push(at);
      continue;
    }
    const nestedClass = Object.prototype.hasOwnProperty.call(nested, key) ? nested[key] : undefined;
    const copy =
      nestedClass === undefined ? value : toNested(nestedClass, value, nestedTypes, at, refusedKeys);
    // defineProperty rather than assignment: a key such as `toString` becomes an own (unknown) field.
    Object.defineProperty(instance, key, {
      value: copy,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { instance, refusedKeys };
}

/** Non-objects are kept as sent, for the DTO's own type check to reject. */
function toNested(
  dtoClass: DtoClass,
  value: unknown,
  nestedTypes: readonly NestedDtoTypes[],
  path: string,
  refusedKeys: string[],
): unknown {
  const one = (item: unknown, at: string): unknown => {
    if (!isJsonObject(item)) return item;
    const result = toDtoInstance(dtoClass, item, nestedTypes, at);
    refusedKeys.push(...result.refusedKeys);
    return result.instance;
  };
  return Array.isArray(value)
    ? value.map((item, index) => one(item, indexPath(path, index)))
    : one(value, path);
}
