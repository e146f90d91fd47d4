import { readEnv } from './read-env';
import { ServiceEnv } from './service-env.dto';

/** Reads ServiceEnv alone from `env` (tools and tests); the apps read it with the other parts (loadAppConfig). */
export function loadServiceEnv(env: NodeJS.ProcessEnv = process.env): ServiceEnv {
  return readEnv({ service: ServiceEnv }, env).service;
}
