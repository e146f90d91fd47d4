import { type INestApplication } from '@nestjs/common';
import { type ChainRegistry } from '@svc/chains';
import {
  type AppConfig,
  listenOps,
  loadRuntime,
  openEventStore,
  openReadModels,
  openRequestRecords,
  READINESS_PROBE,
  type ReadinessProbe,
} from '@svc/composition';
import { type Logger, type PartnerConfig, startTracing } from '@svc/platform';
import { createProviderAdapters } from '@svc/providers';
import { createStandaloneApp } from './create-standalone-app';

export { stopOnSignals } from '@svc/composition';

export interface RunningService {
  app: INestApplication;
  url: string;
  /** The ops listener (/healthz, /readyz, /metrics on OPS_PORT). */
  opsUrl: string;
  config: AppConfig;
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
  const runtime = loadRuntime(environment, 'standalone', { distributed: false });
  const { config, partners, logger, chains } = runtime;
  const tracing = startTracing(config.tracing);
  const store = openEventStore(config.store);
  const records = openRequestRecords(config, store);
  const readModels = openReadModels(config.store, logger, config.work.instanceId);
  const app = await createStandaloneApp({
    config,
    partners,
    store,
    records,
    readModels: readModels.db,
    logger,
    providers: createProviderAdapters(config.providers),
    chains,
  });
  await app.listen(config.http.port, config.http.host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  const ops = await listenOps(app, config, logger).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  return {
    app,
    url,
    opsUrl: ops.url,
    config,
    partners,
    logger,
    chains,
    // /readyz answers 503 (draining) on the ops listener, still open, while the app's in-flight requests finish.
    stop: async () => {
      app.get<symbol, ReadinessProbe>(READINESS_PROBE).drain();
      await app.close();
      await ops.close();
      await records.close();
      await readModels.close();
      await store.close();
      await chains.close();
      await tracing.shutdown();
    },
  };
}
