import 'reflect-metadata';
import { ConfigError } from '@svc/platform';
import { startService, stopOnSignals } from './app/start-service';

/**
 * `npm run service`: the standalone service alone, configured only by its environment
 * (docs/operations/configuration.md), so it can be pointed at any sandbox or at the real providers.
 */
async function main(): Promise<void> {
  const service = await startService(process.env);
  stopOnSignals(service.logger, () => service.stop());
  const { config, partners, url, opsUrl, chains } = service;
  process.stdout.write(
    [
      '',
      `intent service listening on ${url}  (event store: ${config.store.kind}, data: ${config.store.dataDir})`,
      `reference ${url}/docs   probes and metrics ${opsUrl}  (/healthz /readyz /metrics)`,
      `chains from ${config.files.chains ?? '(CHAINS_FILE not set: none)'}: ${chains.chainIds().join(', ') || '-'}`,
      `partners from ${config.files.partners}:`,
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
