import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, spawnEntry, stopChild, waitForLine } from '@svc/testing';

/** Collects the app fee on the sandbox chains: anvil's dev account 9 (the sandbox deployer), a public key. */

/**
 * `npm start`: the provider sandbox (anvil chains, relay / across / mayan dialects, fillers), then the
 * standalone service pointed at it through the environment the sandbox's manifest names. Ctrl-C stops both.
 * Each runs in its own process, exactly as `npm run sandbox` and `npm run service` run them.
 */
async function main(): Promise<void> {
  const verbose = process.env['VERBOSE'] === '1';
  const sandboxLines: string[] = [];
  const serviceLines: string[] = [];
  const echo = (prefix: string, lines: string[]) => (line: string) => {
    lines.push(line);
    if (verbose || /error|fatal/i.test(line)) process.stdout.write(`${prefix} ${line}\n`);
  };

  const sandbox = spawnEntry(
    'apps/provider-sandbox/src/main.ts',
    process.env,
    echo('[sandbox]', sandboxLines),
  );
  await waitForLine(sandbox, sandboxLines, /^service environment:/, 60_000);
  const manifestPath = join(
    process.env['SANDBOX_MANIFEST_DIR'] ?? join(repoRoot, '.sandbox'),
    'manifest.json',
  );
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    url: string;
    env: Record<string, string>;
    chains: { chainId: number; name: string; rpcUrl: string }[];
    wallets: { users: { address: string }[] };
  };

  const service = spawnEntry(
    'apps/standalone/src/main.ts',
    {
      ...manifest.env,
      ...process.env,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
    },
    echo('[service]', serviceLines),
  );
  const [, url] = await waitForLine(service, serviceLines, /listening on (http:\/\/\S+)/, 60_000);
  const stop = () => Promise.all([stopChild(service), stopChild(sandbox)]).then(() => process.exit(0));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop());
  for (const child of [sandbox, service]) child.once('exit', () => void stop());

  const partners = serviceLines.filter((l) => /^\s+\S+\s+auth v[12]/.test(l));
  process.stdout.write(
    [
      '',
      `intent service     ${url}`,
      `provider sandbox   ${manifest.url}   (manifest: ${manifestPath})`,
      ...manifest.chains.map((c) => `  chain ${String(c.chainId).padEnd(6)} ${c.name.padEnd(9)} ${c.rpcUrl}`),
      `  funded wallet    ${manifest.wallets.users[0]?.address ?? '-'}  (anvil dev account 0)`,
      'partners (config/partners.dev.json unless PARTNERS_FILE says otherwise):',
      ...partners,
      '',
      `try it:  npm run partner -- ping`,
      `         npm run partner -- quote --file examples/quote-request.json`,
      '',
      'Ctrl-C stops both.  VERBOSE=1 npm start shows their logs.',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
