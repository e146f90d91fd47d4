import 'reflect-metadata';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import { loadPartnersFile } from '@svc/platform';
import { probeKafkaBroker, repoRoot, startKafkaBroker, startTopology } from '@svc/testing';
import { readChainRun, tieDataToChainRun } from './chain-run-data';
import { createDevLifecycle, startDevSandbox } from './dev-environment';
import { describeWebhook, startDevWebhookReceiver } from './dev-webhook-receiver';
import { type DistributedPorts, distributedPorts, pointCallbacksAt, takenPorts } from './distributed-ports';

/**
 * `npm run distributed`: the distributed composition on one machine, without Docker. A real Apache Kafka broker (its
 * jars from Maven Central: `npm run kafka:resolve`; Java 17), the provider sandbox, the five apps as separate
 * processes on one SQLite file in `data/distributed/`, exactly as `npm test`'s topology suite runs them, and the
 * verifying webhook receiver `npm start` runs. Fixed ports from DISTRIBUTED_BASE_PORT (3100: beside npm start's),
 * the sandbox's manifest in `.sandbox/distributed/`; stopping this process (or npm's) stops everything
 * (docs/dev-environments.md). For EventStoreDB and containers use docker/compose.yaml.
 */
async function main(): Promise<void> {
  let ports: DistributedPorts;
  try {
    ports = distributedPorts(process.env);
  } catch (err) {
    process.stderr.write(`npm run distributed: ${(err as Error).message}\n`);
    process.exit(2);
  }
  // Before the minute the broker and the apps take: a port in use would stop the start half-way.
  const taken = await takenPorts(ports);
  if (taken.length > 0) {
    process.stderr.write(
      `npm run distributed: ${taken.map((t) => `port ${t.port} (${t.name})`).join(', ')} on 127.0.0.1 ` +
        `${taken.length === 1 ? 'is' : 'are'} in use: is npm run distributed already running? Stop it, or start ` +
        `this one on other ports: DISTRIBUTED_BASE_PORT=${ports.gateway + 100} npm run distributed (it uses the base and the 7 ports after it)\n`,
    );
    process.exit(2);
  }
  const probe = probeKafkaBroker();
  if (!probe.available) {
    process.stderr.write(
      `npm run distributed: needs a Kafka broker (Java 17, then npm run kafka:resolve): ${probe.reason}\n`,
    );
    process.exit(1);
  }
  const verbose = process.env['VERBOSE'] === '1';
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const shown = (path: string) => (path.startsWith(repoRoot) ? relative(repoRoot, path) : path);
  const lifecycle = createDevLifecycle('npm run distributed');

  try {
    const kafka = await startKafkaBroker({
      topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, t === Topic.attemptLifecycle ? 6 : 2])),
    });
    lifecycle.onStop(() => kafka.stop());

    const manifestDir = resolve(repoRoot, process.env['SANDBOX_MANIFEST_DIR'] ?? '.sandbox/distributed');
    const { manifest, manifestPath } = await startDevSandbox(
      { ...process.env, SANDBOX_PORT: String(ports.sandbox), SANDBOX_MANIFEST_DIR: manifestDir },
      (line) => {
        if (verbose || /error|fatal/i.test(line)) say(`[sandbox] ${line}`);
      },
      lifecycle,
    );

    // Fresh chains replay the same transaction hashes: the data of an earlier run is moved aside, not mixed in.
    const dataDir = resolve(repoRoot, process.env['DATA_DIR'] ?? 'data/distributed');
    mkdirSync(dataDir, { recursive: true });
    const movedAside = tieDataToChainRun(dataDir, await readChainRun(manifest.chains));
    if (movedAside !== null)
      say(
        `npm run distributed: ${shown(dataDir)} held the events of an earlier sandbox run: moved to ${shown(movedAside)}`,
      );

    // The dev partners' webhooks go to this run's receiver (not to port 4000, npm start's): a copy of the partners
    // file with its loopback callback URLs on the receiver's port. A PARTNERS_FILE of your own is used as it is.
    let partnersFile = process.env['PARTNERS_FILE'];
    if (partnersFile === undefined) {
      partnersFile = join(manifestDir, 'partners.json');
      const dev = readFileSync(join(repoRoot, 'config/partners.dev.json'), 'utf8');
      writeFileSync(partnersFile, pointCallbacksAt(dev, ports.receiver));
    }
    const partners = loadPartnersFile(partnersFile, process.env);
    const receiver = await startDevWebhookReceiver(partners, (received) =>
      say(`[webhook] ${describeWebhook(received)}`),
    );
    lifecycle.onStop(() => receiver.close());

    const topology = await startTopology({
      env: {
        ...process.env,
        ...manifest.env,
        PARTNERS_FILE: partnersFile,
        BUS: 'kafka',
        KAFKA_BROKERS: kafka.brokers.join(','),
        KAFKA_MAX_WAIT_MS: '20',
        EVENT_STORE: 'sqlite',
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'info',
      },
      ports: {
        gateway: { port: ports.gateway, opsPort: ports.gatewayOps },
        quoting: { port: ports.quoting },
        execution: { port: ports.execution },
        'settlement-tracker': { port: ports.settlementTracker },
        'webhook-dispatcher': { port: ports.webhookDispatcher },
      },
      echo: (app, line) => {
        if (verbose || /"level":(50|60)/.test(line)) say(`[${app}] ${line}`);
      },
    });
    // The apps stop first (their consumers leave the groups while the broker still runs), then the receiver, the
    // sandbox and the broker.
    lifecycle.onStop(() => topology.stopAll());
    for (const app of topology.apps) lifecycle.watch(app.instanceId, app.child);

    const gateway = `http://127.0.0.1:${topology.gatewayPort()}`;
    const cli = `SERVICE_URL=${gateway} SANDBOX_MANIFEST_DIR=${shown(manifestDir)}`;
    say(
      [
        '',
        `Kafka (Apache Kafka)      ${kafka.brokers.join(',')}`,
        `provider sandbox          ${manifest.url}   (manifest: ${shown(manifestPath)})`,
        ...manifest.chains.map(
          (c) => `  chain ${String(c.chainId).padEnd(6)} ${c.name.padEnd(9)} ${c.rpcUrl}`,
        ),
        `  funded wallet           ${manifest.wallets.users[0]?.address ?? '-'}  (anvil dev account 0)`,
        ...topology.apps.map((a) =>
          a.opsPort === a.port
            ? `${a.name.padEnd(25)} http://127.0.0.1:${a.port}  (/healthz /readyz /metrics)`
            : `${a.name.padEnd(25)} http://127.0.0.1:${a.port}  (API, /docs)  ops http://127.0.0.1:${a.opsPort}  (/readyz /metrics)`,
        ),
        `event store               ${shown(join(dataDir, 'events.sqlite'))}`,
        `partners (${shown(partnersFile)}):`,
        ...partners.map((p) => `  ${p.partnerId}  auth v${p.authVersion}  callback ${p.callbackUrl ?? '-'}`),
        ...receiver.listening.map(
          (l) =>
            `webhook receiver          ${l.url}  ${l.paths.join(' ')}  (verifies and prints each delivery below)`,
        ),
        ...receiver.skipped.map((s) => `webhook receiver          not started for ${s}`),
        '',
        `try it:  ${cli} npm run partner -- ping`,
        `         ${cli} npm run partner -- demo --file examples/quote-request.json`,
        `         DATA_DIR=${shown(dataDir)} SANDBOX_MANIFEST_DIR=${shown(manifestDir)} npm run audit -- verify --all`,
        '',
        `Ctrl-C (or kill ${process.pid}, or kill npm's pid) stops everything.  VERBOSE=1 shows every app log line.`,
        '',
      ].join('\n'),
    );
  } catch (err) {
    process.stderr.write(`npm run distributed: ${(err as Error)?.message ?? String(err)}\n`);
    await lifecycle.stopAll(1, 'the start failed');
  }
}

void main();
