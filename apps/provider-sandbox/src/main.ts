import { SandboxConfigError } from './config/sandbox-config-error';
import { loadSandboxOptions } from './config/load-sandbox-options';
import { startSandbox } from './start-sandbox';

/**
 * `npm run sandbox`: anvil chains, the relay / across / mayan dialects and their fillers, until SIGINT or
 * SIGTERM. Prints where everything is and the environment the service needs to use it.
 */
async function main(): Promise<void> {
  const sandbox = await startSandbox(loadSandboxOptions(process.env));
  const { manifest } = sandbox;
  // One stop, whichever signals arrive: a terminal's Ctrl-C reaches this process and, from npm start, a SIGTERM
  // too; a second stop closed the closed server (ERR_SERVER_NOT_RUNNING on a clean stop, issue 25 item 7).
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`provider-sandbox: ${signal}, stopping\n`);
      sandbox.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`provider-sandbox: stop failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
    });
  }
  process.stdout.write(
    [
      '',
      `provider sandbox on ${manifest.url}  (started in ${manifest.startupMs} ms)`,
      ...manifest.chains.map((c) => `  chain ${String(c.chainId).padEnd(6)} ${c.name.padEnd(9)} ${c.rpcUrl}`),
      `  relay   ${manifest.providers.relay.baseUrl}`,
      `  across  ${manifest.providers.across.baseUrl}`,
      `  mayan   ${manifest.providers.mayan.priceUrl}  ${manifest.providers.mayan.explorerUrl}`,
      `  faults  POST/DELETE ${manifest.url}/faults   manifest ${manifest.files?.manifest ?? `${manifest.url}/manifest`}`,
      `  funded user 0: ${manifest.wallets.users[0]?.address}`,
      '',
      'service environment:',
      ...Object.entries(manifest.env).map(([name, value]) => `${name}=${value}`),
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `provider-sandbox: ${error instanceof SandboxConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
