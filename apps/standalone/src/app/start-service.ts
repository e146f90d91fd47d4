import { type INestApplication } from '@nestjs/common';
import {
  ConfigError,
  createLogger,
  loadPartnersFile,
  loadServiceEnv,
  type Logger,
  type PartnerConfig,
  type ServiceEnv,
} from '@svc/platform';
import { ChainRegistry, loadChainsFile } from '@svc/chains';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import { createStandaloneApp } from './create-standalone-app';
import { openEventStore } from './open-event-store';

export interface RunningService {
  app: INestApplication;
  url: string;
  env: ServiceEnv;
  partners: PartnerConfig[];
  logger: Logger;
  chains: ChainRegistry;
  stop(): Promise<void>;
}

/**
 * Boots the standalone service from an environment (process.env for `npm run service`; the sandbox's env
 * merged in for `npm start`): validates every setting first, so a bad one stops it with a message naming it.
 */
export async function startService(environment: NodeJS.ProcessEnv): Promise<RunningService> {
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
  const logger = createLogger({
    level: env.LOG_LEVEL,
    name: 'standalone',
    secrets: [...partners.map((p) => p.secret), ...providerKeys],
  });
  const providers = createProviderAdapters(providersConfig);
  const store = openEventStore(env);
  const app = await createStandaloneApp({ env, partners, store, logger, providers, chains });
  await app.listen(env.PORT, env.HOST);
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  return {
    app,
    url,
    env,
    partners,
    logger,
    chains,
    stop: async () => {
      await app.close();
      await store.close();
      await chains.close();
    },
  };
}

/** Stops `stop` once on SIGINT/SIGTERM, then exits. */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      void stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
