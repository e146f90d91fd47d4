import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { formatValidationErrors } from './format-validation-errors';
import { ServiceEnv } from './service-env.dto';

/** Reads ServiceEnv from `env`; unset or empty variables keep their defaults. */
export function loadServiceEnv(env: NodeJS.ProcessEnv = process.env): ServiceEnv {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const instance = plainToInstance(ServiceEnv, defined, { excludeExtraneousValues: false });
  const errors = validateSync(instance, { whitelist: true });
  if (errors.length) {
    throw new ConfigError(`invalid environment:\n  ${formatValidationErrors(errors).join('\n  ')}`);
  }
  if (instance.EVENT_STORE === 'eventstoredb' && !instance.EVENTSTOREDB_URL) {
    throw new ConfigError('invalid environment:\n  EVENTSTOREDB_URL: required when EVENT_STORE=eventstoredb');
  }
  return instance;
}
