import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import {
  probeKafkaBroker,
  repoRoot,
  startKafkaBroker,
  startSandboxProcess,
  startTopology,
} from '@svc/testing';

/** Collects the app fee on the sandbox chains: anvil's dev account 9 (the sandbox deployer), a public key. */

/**
 * `npm run distributed`: the distributed composition on one machine, without Docker. A real Apache Kafka broker (its
 * jars from Maven Central: `npm run kafka:resolve`; Java 17), the provider sandbox, and the five apps as separate processes on one
 * SQLite file in `data/distributed/`, exactly as `npm test`'s topology suite runs them. Ctrl-C stops everything.
 * For EventStoreDB and containers use docker/compose.yaml.
 */
async function main(): Promise<void> {
  const probe = probeKafkaBroker();
  if (!probe.available) {
    throw new Error(`needs a Kafka broker (Java 17 and Maven: npm run kafka:resolve): ${probe.reason}`);
  }
  const verbose = process.env['VERBOSE'] === '1';
  const dataDir = join(repoRoot, 'data', 'distributed');
  mkdirSync(dataDir, { recursive: true });
  const kafka = await startKafkaBroker({
    topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, t === Topic.attemptLifecycle ? 6 : 2])),
  });
  const sandbox = await startSandboxProcess();
  const topology = await startTopology({
    env: {
      ...process.env,
      ...sandbox.manifest.env,
      BUS: 'kafka',
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_MAX_WAIT_MS: '20',
      EVENT_STORE: 'sqlite',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'info',
    },
    echo: (app, line) => {
      if (verbose || /"level":(50|60)/.test(line)) process.stdout.write(`[${app}] ${line}\n`);
    },
  });
  const stop = async () => {
    await topology.stopAll();
    await Promise.all([sandbox.stop(), kafka.stop()]);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop());
  process.stdout.write(
    [
      '',
      `Kafka (Apache Kafka)     ${kafka.brokers.join(',')}`,
      `provider sandbox          ${sandbox.manifest.url}`,
      ...topology.apps.map((a) =>
        a.opsPort === a.port
          ? `${a.name.padEnd(25)} http://127.0.0.1:${a.port}  (/healthz /readyz /metrics)`
          : `${a.name.padEnd(25)} http://127.0.0.1:${a.port}  (API, /docs)  ops http://127.0.0.1:${a.opsPort}  (/readyz /metrics)`,
      ),
      `event store               ${join(dataDir, 'events.sqlite')}`,
      '',
      `try it:  SERVICE_URL=http://127.0.0.1:${topology.gatewayPort()} npm run partner -- ping`,
      '',
      'Ctrl-C stops everything.  VERBOSE=1 shows every app log line.',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`npm run distributed: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
