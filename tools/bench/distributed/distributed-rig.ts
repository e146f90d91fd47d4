import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, SqliteEventStore } from '@svc/event-store';
import { kafkaBusTopics, Topic } from '@svc/messaging';
import {
  DISTRIBUTED_APPS,
  type SandboxManifestView,
  type RunningKafkaBroker,
  startKafkaBroker,
  startSandboxProcess,
  startTopology,
  type Topology,
} from '@svc/testing';
import { log } from '../bench-failure';
import { SERVICE_FEE_RECIPIENT, writeBenchPartnersFile } from '../bench-partner';
import { type ChildServer, startChildServer } from '../child/start-child-server';
import { childPids } from '../process-cpu';
import { type BenchPartner } from '../load/signed-api-request';
import { seedAttempts } from '../seed-attempts';
import { startStubProviders, type StubProviders } from '../stub/start-stub-providers';
import { type LoadTargets } from './spread-load';

/** Provider URL variables of the apps, and the stub route each is sent to (as the bench rig points the service). */
const PROVIDER_URLS = {
  relay: 'RELAY_BASE_URL',
  across: 'ACROSS_BASE_URL',
  mayan: 'MAYAN_PRICE_URL',
  'mayan-explorer': 'MAYAN_EXPLORER_URL',
} as const;

export interface DistributedRigOptions {
  /** Attempts stored in both event stores before anything starts, for the status reads. */
  attempts: number;
  /** The provider stubs' fixed answer delay. */
  providerDelayMs: number;
  /** The apps' KAFKA_MAX_WAIT_MS. */
  kafkaMaxWaitMs: number;
}

/** What the distributed scenario runs on. */
export interface DistributedRig {
  partner: BenchPartner;
  manifest: SandboxManifestView;
  stub: StubProviders;
  /** The one-process service (`npm run service`'s entry), the baseline beside the topology. */
  standalone: ChildServer;
  /** The standalone service as a load target. */
  standaloneTarget(): LoadTargets;
  /** Every running gateway (the partner's entry points); every running app's process and the broker's JVM. */
  topologyTarget(): LoadTargets;
  /** Starts more replicas of every app, the features first and the gateways last (a scale-out), until each has n. */
  scaleTo(replicas: number): Promise<void>;
  /** Replicas running of each app. */
  replicas(): number;
  stop(): Promise<void>;
}

/**
 * Starts, whatever fails stopping what already started (in reverse): the provider sandbox and a real Apache Kafka
 * broker (startKafkaBroker) at once, the stubs in front of the sandbox, a partners file, then the one-process service
 * (its own SQLite file) and the five apps once each (startTopology, one shared SQLite file) at once, every process at
 * LOG_LEVEL=warn with its providers pointed at the stubs. `attempts` attempts are seeded into both stores first.
 */
export async function startDistributedRig(options: DistributedRigOptions): Promise<DistributedRig> {
  const work = mkdtempSync(join(tmpdir(), 'bench-distributed-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
  // One stop for every caller (an interrupt and the scenario's own finally): each waits until all has stopped.
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Every step runs even when one before it failed: the first failure is rethrown once all ran.
      let failure: Error | undefined;
      for (const s of stops.splice(0).reverse()) {
        await Promise.resolve()
          .then(s)
          .catch((error: unknown) => (failure ??= error instanceof Error ? error : new Error(String(error))));
      }
      if (failure !== undefined) throw failure;
    })());
  try {
    log('distributed: starting the provider sandbox, the stubs and the Kafka broker…');
    const [sandboxStart, brokerStart] = await Promise.allSettled([
      startSandboxProcess({
        SANDBOX_HOST: '127.0.0.1',
        SANDBOX_FAULTS: '',
        SANDBOX_CHAIN_PORTS: '',
        // Nothing is filled here: its chain watchers may idle.
        SANDBOX_POLL_MS: '1000',
      }),
      // Topics made up front as tools/topology's broker infra and `npm run distributed` make them: two partitions
      // per request and reply topic (one per replica), six for attempt.lifecycle.
      startKafkaBroker({
        topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, t === Topic.attemptLifecycle ? 6 : 2])),
        autoCreateTopics: false,
      }),
    ]);
    if (sandboxStart.status === 'fulfilled') stops.push(() => sandboxStart.value.stop());
    if (brokerStart.status === 'fulfilled') stops.push(() => brokerStart.value.stop());
    if (sandboxStart.status === 'rejected') throw sandboxStart.reason;
    if (brokerStart.status === 'rejected') throw brokerStart.reason;
    const sandbox = sandboxStart.value;
    const broker: RunningKafkaBroker = brokerStart.value;
    // The broker's JVM, this process's only java child, so its CPU counts with the apps'.
    const brokerPids = childPids(process.pid).filter((pid) => commandOf(pid) === 'java');
    const storeDir = join(work, 'distributed');
    mkdirSync(storeDir);

    const { CHAINS_FILE: _chains, ...providerEnv } = sandbox.manifest.env;
    const stub = await startStubProviders({
      upstreams: Object.fromEntries(
        Object.entries(PROVIDER_URLS).flatMap(([name, variable]) =>
          providerEnv[variable] ? [[name, providerEnv[variable]]] : [],
        ),
      ),
      delayMs: options.providerDelayMs,
    });
    stops.push(() => stub.close());
    const partnersFile = join(work, 'partners.json');
    const partner = writeBenchPartnersFile(partnersFile);
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      ...providerEnv,
      ...Object.fromEntries(
        Object.entries(PROVIDER_URLS).map(([name, variable]) => [variable, stub.urlOf(name)]),
      ),
      LOG_LEVEL: 'warn',
      SERVICE_FEE_RECIPIENT,
      PARTNERS_FILE: partnersFile,
    };

    const dataDir = join(work, 'standalone');
    mkdirSync(dataDir);
    await seed(SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') }), partner, options.attempts);
    await seed(SqliteEventStore.open({ file: join(storeDir, 'events.sqlite') }), partner, options.attempts);

    log('distributed: starting the one-process service and the five apps…');
    // Both at once, each stopped at the end even when the other failed to start.
    let topology: Topology | undefined;
    stops.push(() => topology?.stopAll());
    const [standaloneStart, topologyStart] = await Promise.allSettled([
      startChildServer({
        name: 'standalone',
        entry: 'apps/standalone/src/main.ts',
        env: { ...env, DATA_DIR: dataDir, EVENT_STORE: 'sqlite' },
        // Six processes starting at once on two cores.
        timeoutMs: 240_000,
      }),
      startTopology({
        env: {
          ...env,
          BUS: 'kafka',
          KAFKA_BROKERS: broker.brokers.join(','),
          KAFKA_IDEMPOTENT: 'true',
          KAFKA_AUTO_CREATE_TOPICS: 'false',
          EVENT_STORE: 'sqlite',
          DATA_DIR: storeDir,
          KAFKA_MAX_WAIT_MS: String(options.kafkaMaxWaitMs),
        },
        startTimeoutMs: 240_000,
        echo: (app, line) => {
          // kafkajs logs what it retries as errors (a rebalance while a replica joins): only with VERBOSE=1.
          const error = /"level":(50|60)/.test(line) && !line.includes('\\"logger\\":\\"kafkajs\\"');
          if (process.env['VERBOSE'] === '1' || error) log(`[${app}] ${line}`);
        },
      }),
    ]);
    if (standaloneStart.status === 'fulfilled') stops.push(() => standaloneStart.value.stop());
    if (topologyStart.status === 'fulfilled') topology = topologyStart.value;
    if (standaloneStart.status === 'rejected') throw standaloneStart.reason;
    if (topologyStart.status === 'rejected') throw topologyStart.reason;
    const standalone = standaloneStart.value;
    const running = topologyStart.value;
    const replicas = () => Math.min(...DISTRIBUTED_APPS.map((app) => running.running(app).length));

    return {
      partner,
      manifest: sandbox.manifest,
      stub,
      standalone,
      standaloneTarget: () => ({ urls: [standalone.url], pids: [standalone.pid] }),
      topologyTarget: () => ({
        urls: running.running('gateway').map((g) => `http://127.0.0.1:${g.port}`),
        pids: [
          ...brokerPids,
          ...running.apps
            .filter((a) => a.child.exitCode === null && a.child.signalCode === null)
            .map((a) => a.child.pid!),
        ],
      }),
      scaleTo: async (n) => {
        const features = DISTRIBUTED_APPS.filter((app) => app !== 'gateway');
        while (replicas() < n) {
          log(`distributed: starting replica ${replicas() + 1} of every app…`);
          await Promise.all(
            features.filter((app) => running.running(app).length < n).map((app) => running.start(app)),
          );
          if (running.running('gateway').length < n) await running.start('gateway');
        }
      },
      replicas,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function seed(store: EventStore, partner: BenchPartner, attempts: number): Promise<void> {
  try {
    await seedAttempts(store, { partnerId: partner.partnerId, from: 0, to: attempts });
  } finally {
    await store.close();
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
