import { plainToInstance, Transform } from 'class-transformer';
import { getMetadataStorage, IsBoolean, validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { formatValidationErrors } from './format-validation-errors';

/** A class-validator DTO of environment variables: one property per variable, its initializer the default. */
export type EnvDto<T extends object = object> = new () => T;

export type EnvOf<P extends Record<string, EnvDto>> = { [K in keyof P]: InstanceType<P[K]> };

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
    const instance = plainToInstance(parts[key], defined) as InstanceType<P[typeof key]>;
    problems.push(
      ...formatValidationErrors(validateSync(instance, { whitelist: true, stopAtFirstError: true })),
    );
    read[key] = instance;
  }
  if (problems.length) throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
  return read as EnvOf<P>;
}

/** The variables a DTO declares (every validated property), e.g. to check the README's table against the code. */
export function envVariables(dto: EnvDto): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

/** A `true`/`false` variable; anything else (`ture`, `1`, `yes`) is refused rather than read as false. */
export function IsEnvBoolean(): PropertyDecorator {
  return (target, property) => {
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    )(target, property);
    IsBoolean({ message: 'must be true or false' })(target, property);
  };
}
