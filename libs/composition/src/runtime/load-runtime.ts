import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ChainRegistry, loadChainsFile } from '@svc/chains';
import { type WorkSharing } from '@svc/event-store';
import {
  ConfigError,
  createLogger,
  loadPartnersFile,
  loadServiceEnv,
  type Logger,
  type PartnerConfig,
  type ServiceEnv,
} from '@svc/platform';
import { loadProvidersConfig, type ProvidersConfig } from '@svc/providers';
import { checkProvidersAtBoot } from './check-providers-at-boot';

/** What every app reads from its environment before composing anything. */
export interface Runtime {
  env: ServiceEnv;
  partners: PartnerConfig[];
  chains: ChainRegistry;
  providersConfig: ProvidersConfig;
  logger: Logger;
  workSharing: WorkSharing;
}

/**
 * Validates the environment and the files it names, then builds the logger (every partner secret and provider key
 * scrubbed from its output) and warns about providers missing production credentials. A bad setting throws a
 * ConfigError naming it, before anything starts (with NODE_ENV=production, so does a missing credential).
 */
export function loadRuntime(environment: NodeJS.ProcessEnv, name: string): Runtime {
  const env = loadServiceEnv(environment);
  const partners = loadPartnersFile(env.PARTNERS_FILE, environment);
  if (!env.SERVICE_FEE_RECIPIENT && (env.SERVICE_FEE_BPS > 0 || partners.some((p) => p.maxFeeBps > 0))) {
    throw new ConfigError(
      'invalid environment:\n  SERVICE_FEE_RECIPIENT: required because SERVICE_FEE_BPS or a partner maxFeeBps allows a fee (an EVM address receiving the app fee)',
    );
  }
  const chains = new ChainRegistry(env.CHAINS_FILE ? loadChainsFile(env.CHAINS_FILE) : []);
  const providersConfig = loadProvidersConfig(environment);
  const providerKeys = [
    providersConfig.relay.apiKey,
    providersConfig.across.apiKey,
    providersConfig.mayan.apiKey,
  ].filter((k): k is string => !!k);
  const instanceId = env.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const logger = createLogger({
    level: env.LOG_LEVEL,
    name,
    secrets: [...partners.map((p) => p.secret), ...providerKeys],
  }).child({ instance: instanceId });
  checkProvidersAtBoot({
    config: providersConfig,
    partners,
    production: env.NODE_ENV === 'production',
    logger,
  });
  return {
    env,
    partners,
    chains,
    providersConfig,
    logger,
    workSharing: { instanceId, shardCount: env.WORK_SHARDS, leaseTtlMs: env.LEASE_TTL_SECONDS * 1000 },
  };
}
