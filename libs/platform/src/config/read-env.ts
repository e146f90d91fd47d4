import { getMetadataStorage, IsBoolean, validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { formatValidationErrors } from './format-validation-errors';

/** A class-validator DTO of environment variables: one property per variable, its initializer the default. */
export type EnvDto<T extends object = object> = new () => T;

export type EnvOf<P extends Record<string, EnvDto>> = { [K in keyof P]: InstanceType<P[K]> };

/** How one variable's string becomes the value its validators check; a variable without one stays a string. */
type Coercion = (value: string) => unknown;

/** The coercions a DTO's properties declare (`@EnvNumber()`, `@IsEnvBoolean()`), by the prototype declaring them. */
const coercions = new WeakMap<object, Map<string, Coercion>>();

function coerceWith(coercion: Coercion): PropertyDecorator {
  return (target, property) => {
    const own = coercions.get(target) ?? new Map<string, Coercion>();
    own.set(String(property), coercion);
    coercions.set(target, own);
  };
}

function coercionOf(dto: EnvDto, name: string): Coercion | undefined {
  for (
    let proto: object | null = dto.prototype as object;
    proto;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    const coercion = coercions.get(proto)?.get(name);
    if (coercion) return coercion;
  }
  return undefined;
}

/**
 * Validates one environment against several DTOs at once (each lib declares the variables it owns) and reports every
 * problem together, each line naming its variable. Values are trimmed; unset, empty or blank variables keep their
 * defaults. Messages never carry a value, so a bad key or URL is not echoed.
 */
export function readEnv<P extends Record<string, EnvDto>>(
  parts: P,
  environment: NodeJS.ProcessEnv,
): EnvOf<P> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    const trimmed = value?.trim();
    if (trimmed) defined[name] = trimmed;
  }
  const problems: string[] = [];
  const read: Partial<EnvOf<P>> = {};
  for (const key of Object.keys(parts) as (keyof P)[]) {
    const instance = envInstance(parts[key], defined) as InstanceType<P[typeof key]>;
    problems.push(
      ...formatValidationErrors(validateSync(instance, { whitelist: true, stopAtFirstError: true })),
    );
    read[key] = instance;
  }
  if (problems.length) throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
  return read as EnvOf<P>;
}

/** The DTO with its defaults, each variable the DTO declares and the environment defines set as its coercion says. */
function envInstance(dto: EnvDto, defined: Record<string, string>): object {
  const instance = new dto() as Record<string, unknown>;
  for (const name of envVariables(dto)) {
    if (!Object.prototype.hasOwnProperty.call(defined, name)) continue;
    const value = defined[name];
    const coercion = coercionOf(dto, name);
    instance[name] = coercion ? coercion(value) : value;
  }
  return instance;
}

/** The variables a DTO declares (every validated property), e.g. to check docs/operations/configuration.md's table against the code. */
export function envVariables(dto: EnvDto): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

/**
 * A numeric variable, read with `Number()`: `12abc` and `Infinity` become NaN and Infinity, which the property's own
 * validators (`@IsInt`, `@IsNumber`, `@Min`, `@Max`) refuse with their messages; `1e3` and `0x10` are the numbers
 * they spell.
 */
export function EnvNumber(): PropertyDecorator {
  return coerceWith((value) => Number(value));
}

/** The secrets a DTO declares (`@EnvSecret()`), by the prototype declaring them. */
const secrets = new WeakMap<object, Set<string>>();

/**
 * A variable holding a secret (a key, a password, credentials in a URL or header): `.env.example` never gives it a
 * value. It has no default either.
 */
export function EnvSecret(): PropertyDecorator {
  return (target, property) => {
    secrets.set(target, (secrets.get(target) ?? new Set<string>()).add(String(property)));
  };
}

/** The variables of a DTO marked `@EnvSecret()`, its parents' included. */
export function envSecrets(dto: EnvDto): string[] {
  const names: string[] = [];
  for (
    let proto: object | null = dto.prototype as object;
    proto;
    proto = Object.getPrototypeOf(proto) as object | null
  )
    names.push(...(secrets.get(proto) ?? []));
  return envVariables(dto).filter((name) => names.includes(name));
}

/** A `true`/`false` variable; anything else (`ture`, `1`, `yes`) is refused rather than read as false. */
export function IsEnvBoolean(): PropertyDecorator {
  return (target, property) => {
    coerceWith((value) => (value === 'true' ? true : value === 'false' ? false : value))(target, property);
    IsBoolean({ message: 'must be true or false' })(target, property);
  };
}
