import { type INestApplication } from '@nestjs/common';
import { type ChainRegistry } from '@svc/chains';
import { loadRuntime, openEventStore } from '@svc/composition';
import { ConfigError, type Logger, type PartnerConfig, type ServiceEnv } from '@svc/platform';
import { createProviderAdapters } from '@svc/providers';
import { createStandaloneApp } from './create-standalone-app';

export { stopOnSignals } from '@svc/composition';

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
  const runtime = loadRuntime(environment, 'standalone');
  const { env, partners, logger, chains } = runtime;
  if (env.BUS !== 'inprocess') {
    throw new ConfigError(
      'invalid environment:\n  BUS: the one-process service runs its own in-process bus; BUS=kafka is for the five distributed apps',
    );
  }
  const store = openEventStore(env);
  const app = await createStandaloneApp({
    env,
    partners,
    store,
    logger,
    providers: createProviderAdapters(runtime.providersConfig),
    chains,
    workSharing: runtime.workSharing,
  });
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
