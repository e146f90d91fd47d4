import 'reflect-metadata';
import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPartnersFile } from '@svc/platform';
import { repoRoot, spawnEntry, stopChild, waitForLine } from '@svc/testing';
import { describeWebhook, type DevWebhookReceiver, startDevWebhookReceiver } from './dev-webhook-receiver';

/**
 * `npm start`: the provider sandbox (anvil chains, relay / across / mayan dialects, fillers), then the
 * standalone service pointed at it through the environment the sandbox's manifest names, and a receiver for the
 * dev partners' webhooks that verifies and prints each delivery. Each runs in its own process, exactly as
 * `npm run sandbox` and `npm run service` run them; stopping this one stops them all.
 */
async function main(): Promise<void> {
  const verbose = process.env['VERBOSE'] === '1';
  const sandboxLines: string[] = [];
  const serviceLines: string[] = [];
  const echo = (prefix: string, lines: string[]) => (line: string) => {
    lines.push(line);
    if (verbose || /error|fatal/i.test(line)) process.stdout.write(`${prefix} ${line}\n`);
  };

  // Everything started here is stopped here, whichever way this process is asked to end: Ctrl-C, a signal to its
  // process id, a child that dies, a start that fails half-way, or its parent (npm) going away.
  const started: ChildProcess[] = [];
  let receiver: DevWebhookReceiver | null = null;
  let stopping = false;
  const stopAll = async (code: number, why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`npm start: ${why}, stopping everything it started\n`);
    await Promise.all(started.map((child) => stopChild(child)));
    await receiver?.close();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => void stopAll(0, signal));
  stopWithParent(() => void stopAll(0, 'its parent process ended'));
  const watch = (name: string, child: ChildProcess) => {
    started.push(child);
    child.once('exit', (code) => void stopAll(1, `${name} exited (${code ?? 'signal'})`));
  };

  try {
    const sandbox = spawnEntry(
      'apps/provider-sandbox/src/main.ts',
      process.env,
      echo('[sandbox]', sandboxLines),
    );
    watch('the provider sandbox', sandbox);
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
    const serviceEnv: NodeJS.ProcessEnv = {
      ...manifest.env,
      ...process.env,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
    };

    const partnersFile = serviceEnv['PARTNERS_FILE'] ?? join(repoRoot, 'config/partners.dev.json');
    receiver = await startDevWebhookReceiver(loadPartnersFile(partnersFile, serviceEnv), (received) =>
      process.stdout.write(`[webhook] ${describeWebhook(received)}\n`),
    );

    const service = spawnEntry('apps/standalone/src/main.ts', serviceEnv, echo('[service]', serviceLines));
    watch('the service', service);
    const [, url] = await waitForLine(service, serviceLines, /listening on (http:\/\/\S+)/, 60_000);

    const partners = serviceLines.filter((l) => /^\s+\S+\s+auth v[12]/.test(l));
    process.stdout.write(
      [
        '',
        `intent service     ${url}`,
        `provider sandbox   ${manifest.url}   (manifest: ${manifestPath})`,
        ...manifest.chains.map(
          (c) => `  chain ${String(c.chainId).padEnd(6)} ${c.name.padEnd(9)} ${c.rpcUrl}`,
        ),
        `  funded wallet    ${manifest.wallets.users[0]?.address ?? '-'}  (anvil dev account 0)`,
        'partners (config/partners.dev.json unless PARTNERS_FILE says otherwise):',
        ...partners,
        ...receiver.listening.map(
          (l) =>
            `webhook receiver   ${l.url}  ${l.paths.join(' ')}  (verifies and prints each delivery below)`,
        ),
        ...receiver.skipped.map((s) => `webhook receiver   not started for ${s}`),
        '',
        `try it:  npm run partner -- ping`,
        `         npm run partner -- quote --file examples/quote-request.json`,
        `         npm run partner -- demo --file examples/quote-request.json   (quote, prepare, the wallet's part, settled)`,
        '',
        `Ctrl-C (or kill ${process.pid}, or kill npm's pid) stops everything.  VERBOSE=1 npm start shows their logs.`,
        '',
      ].join('\n'),
    );
  } catch (err) {
    process.stderr.write(`npm start: ${(err as Error)?.message ?? String(err)}\n`);
    await stopAll(1, 'the start failed');
  }
}

/**
 * npm does not pass a signal sent to its own pid on to the script it runs (npm 10: it exits and leaves the script
 * running), so `kill <npm's pid>` would orphan everything. The start script execs this process in npm's place (see
 * package.json): npm is its parent, and when the parent changes, npm is gone.
 */
function stopWithParent(onGone: () => void): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) onGone();
  }, 500).unref();
}

void main();
