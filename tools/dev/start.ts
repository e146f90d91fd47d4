import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { loadPartnersFile } from '@svc/platform';
import { repoRoot, spawnEntry, stopChild, waitForLine } from '@svc/testing';
import { readChainRun, tieDataToChainRun } from './chain-run-data';
import { createDevLifecycle, startDevSandbox } from './dev-environment';
import { describeWebhook, startDevWebhookReceiver } from './dev-webhook-receiver';

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
  // process id, a child that dies, a start that fails half-way, or its parent (npm, or tools/dev/supervise.js)
  // going away. The service stops before the sandbox whose chains it reads.
  const lifecycle = createDevLifecycle('npm start');

  try {
    const { manifest, manifestPath } = await startDevSandbox(
      process.env,
      echo('[sandbox]', sandboxLines),
      lifecycle,
    );
    const serviceEnv: NodeJS.ProcessEnv = {
      ...manifest.env,
      ...process.env,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
    };

    // Fresh chains replay the same transaction hashes: the data of an earlier run is moved aside, not mixed in.
    const dataDir = resolve(repoRoot, serviceEnv['DATA_DIR'] ?? 'data');
    const movedAside = tieDataToChainRun(dataDir, await readChainRun(manifest.chains));
    if (movedAside !== null)
      process.stdout.write(
        `npm start: ${dataDir} held the events of an earlier sandbox run, whose chains are gone: moved to ${movedAside}\n`,
      );

    const partnersFile = serviceEnv['PARTNERS_FILE'] ?? join(repoRoot, 'config/partners.dev.json');
    // DEV_WEBHOOK_RECEIVER=off leaves every callback port to the partner's own receiver (an SDK quickstart, an
    // example backend started later): the webhooks that arrive before it listens are retried by the service.
    const receiver =
      serviceEnv['DEV_WEBHOOK_RECEIVER'] === 'off'
        ? {
            listening: [],
            skipped: ['every partner (DEV_WEBHOOK_RECEIVER=off)'],
            close: () => Promise.resolve(),
          }
        : await startDevWebhookReceiver(loadPartnersFile(partnersFile, serviceEnv), (received) =>
            process.stdout.write(`[webhook] ${describeWebhook(received)}\n`),
          );
    lifecycle.onStop(() => receiver.close());

    const service = spawnEntry('apps/standalone/src/main.ts', serviceEnv, echo('[service]', serviceLines));
    lifecycle.watch('the service', service);
    lifecycle.onStop(() => stopChild(service));
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
    await lifecycle.stopAll(1, 'the start failed');
  }
}

void main();
