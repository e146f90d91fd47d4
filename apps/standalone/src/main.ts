import 'reflect-metadata';
import { ConfigError, createLogger, loadPartnersFile, loadServiceEnv } from '@svc/platform';
import { createStandaloneApp } from './app/create-standalone-app';
import { openEventStore } from './app/open-event-store';

/** `npm start`: the whole service in one process, settings from the environment (README "Configuration"). */
async function main(): Promise<void> {
  const env = loadServiceEnv();
  const partners = loadPartnersFile(env.PARTNERS_FILE);
  const logger = createLogger({
    level: env.LOG_LEVEL,
    name: 'standalone',
    secrets: partners.map((p) => p.secret),
  });
  const store = openEventStore(env);
  const app = await createStandaloneApp({ env, partners, store, logger });
  await app.listen(env.PORT, env.HOST);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      void app
        .close()
        .then(() => store.close())
        .then(() => process.exit(0));
    });
  }
  const url = await app.getUrl();
  process.stdout.write(
    [
      '',
      `intent service listening on ${url.replace('[::1]', 'localhost')}  (event store: ${env.EVENT_STORE}, data: ${env.DATA_DIR})`,
      `partners from ${env.PARTNERS_FILE}:`,
      ...partners.map(
        (p) =>
          `  ${p.partnerId}  auth v${p.authVersion}${p.enabled ? '' : '  (disabled)'}  callback ${p.callbackUrl ?? '-'}`,
      ),
      `try it:  npm run partner -- ping`,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : String((err as Error)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
