import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore } from '@svc/event-store';
import {
  type CountingWebhookReceiver,
  type DistributedAppName,
  rawRequest,
  runSandboxFlow,
  type SandboxProcess,
  signedRequest,
  startCountingWebhookReceiver,
  startSandboxProcess,
  startTopology,
  type Topology,
} from '@svc/testing';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';

/** The bus and the store the apps share: a Kafka broker and SQLite, or Kafka and EventStoreDB in containers. */
/**
 * True when a topology suite cannot run here: prints the reason once and registers the suite as skipped (the broker or
 * a container runtime is missing), so the report names it instead of showing nothing.
 */
export function skippedTopology(title: string, what: string, skipReason: string | undefined): boolean {
  if (!skipReason) return false;
  process.stdout.write(`${title}: skipped, ${skipReason}\n`);
  // Skipped on purpose: the broker or container runtime is missing here (the reason is printed above).
  describe.skip(title, () => it(what, () => undefined));
  return true;
}

export interface TopologyInfra {
  /** BUS, KAFKA_BROKERS, EVENT_STORE and DATA_DIR or EVENTSTOREDB_URL. */
  env: Record<string, string>;
  /** The same store, opened by the test to inspect what the apps wrote. */
  openStore(): EventStore;
  /** The broker's last log lines, for a failure message (where the infra keeps a log). */
  logTail?(): string;
  /** `failed`: a test failed, keep what explains it (the broker's log). */
  stop(options?: { failed?: boolean }): Promise<void>;
}

export interface TopologyHarnessOptions {
  instances?: Partial<Record<DistributedAppName, number>>;
  /** The provider sandbox's filler delay: how long an attempt stays in flight before it can settle. */
  fillDelayMs?: number;
  /** The apps' LOG_LEVEL (default info; debug adds the Kafka clients' group joins). */
  logLevel?: string;
}

export const LIFECYCLE = ['wallet_submitted', 'provider_pending', 'settled'];
/** Shards of the tracker's and the dispatcher's work (WORK_SHARDS of every app). */
export const WORK_SHARDS = 8;

const partner = {
  partnerId: 'topology-partner',
  secret: 'topology-partner-secret-0123456789',
  authVersion: 2 as const,
};

/**
 * The apps as separate processes over the given bus and store, the provider sandbox, a partner's webhook receiver,
 * and a round-robin balancer in front of the gateways (partner traffic goes to `port`): started in `beforeAll`,
 * stopped in `afterAll` of the enclosing describe. The helpers read the state the tests assert on.
 */
export class TopologyHarness {
  readonly partner = partner;
  topology!: Topology;
  sandbox!: SandboxProcess;
  store!: EventStore;
  receiver!: CountingWebhookReceiver;
  balancer!: RoundRobinProxy;
  infra: TopologyInfra | undefined;
  private failed = false;

  /** Where a partner sends its requests: the balancer in front of every running gateway. */
  get port(): number {
    return this.balancer.port;
  }

  /** Keeps the broker's log when the infrastructure stops. */
  markFailed(): void {
    this.failed = true;
  }

  /** A test whose failure keeps the broker's log. */
  test(name: string, body: () => Promise<void>, timeoutMs: number): void {
    it(
      name,
      async () => {
        try {
          await body();
        } catch (err) {
          this.markFailed();
          throw err;
        }
      },
      timeoutMs,
    );
  }

  async status(attemptId: string): Promise<string> {
    const res = await signedRequest({
      port: this.port,
      partner,
      method: 'GET',
      path: `/api/external/attempts/${attemptId}/status`,
    });
    return res.status === 200 ? (res.json as { status: string }).status : `http ${res.status}`;
  }

  eventsOf(attemptId: string): string[] {
    return this.receiver.received.filter((e) => e.attemptId === attemptId).map((e) => e.event);
  }

  flow(userIndex: number) {
    return runSandboxFlow({ port: this.port, partner, sandbox: this.sandbox, userIndex });
  }

  async recorded(attemptId: string, type: string): Promise<number> {
    return (await this.store.readStream(`attempt-${attemptId}`)).filter((e) => e.type === type).length;
  }

  async metrics(app: DistributedAppName): Promise<string> {
    return (await rawRequest({ port: this.topology.get(app).opsPort, method: 'GET', path: '/metrics' })).text;
  }

  async until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${this.recentLogs()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** The warnings and errors of every app, and each one's last lines: what a failed wait needs to be understood. */
  recentLogs(): string {
    // The background workers first (CI shows only the start of a long failure), routine request lines left out.
    const order = ['webhook-dispatcher', 'settlement-tracker', 'gateway', 'execution', 'quoting'];
    const apps = [...this.topology.apps]
      .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
      .map((app) => {
        const notable = app.lines.filter((l) => /"level":(40|50|60)/.test(l) && !/partitioner/.test(l));
        const recent = app.lines.filter((l) => !/"msg":"(http request|bus message handled)"/.test(l));
        const state = app.child.exitCode === null && app.child.signalCode === null ? '' : ' (exited)';
        return [`--- ${app.instanceId}${state}`, ...notable.slice(-10), '...', ...recent.slice(-6)]
          .map((l) => l.replace(/"(level|time|pid|hostname|name)":[^,]*,/g, '').slice(0, 300))
          .join('\n');
      });
    const broker = this.infra?.logTail?.();
    return [...apps, ...(broker ? ['--- kafka broker', broker] : [])].join('\n');
  }

  async start(startInfra: () => Promise<TopologyInfra>, options: TopologyHarnessOptions, dir: string) {
    this.receiver = await startCountingWebhookReceiver(partner);
    const partnersFile = join(dir, 'partners.json');
    writeFileSync(
      partnersFile,
      JSON.stringify({
        partners: [
          {
            ...partner,
            callbackUrl: this.receiver.url,
            allowedProviders: ['relay'],
            maxFeeBps: 0,
            rateLimitPerMinute: 10_000,
            enabled: true,
          },
        ],
      }),
    );
    // Both, even when one fails: stop() stops whichever started.
    const [sandbox, infra] = await Promise.allSettled([
      startSandboxProcess({ SANDBOX_FILL_DELAY_MS: String(options.fillDelayMs ?? 1500) }),
      startInfra(),
    ]);
    if (sandbox.status === 'fulfilled') this.sandbox = sandbox.value;
    if (infra.status === 'fulfilled') this.infra = infra.value;
    if (sandbox.status === 'rejected') throw sandbox.reason;
    if (infra.status === 'rejected') throw infra.reason;
    this.store = infra.value.openStore();
    this.topology = await startTopology({
      env: {
        ...process.env,
        ...sandbox.value.manifest.env,
        ...infra.value.env,
        PARTNERS_FILE: partnersFile,
        LOG_LEVEL: options.logLevel ?? 'info',
        SETTLEMENT_TICK_MS: '200',
        WEBHOOK_TICK_MS: '200',
        WORK_SHARDS: String(WORK_SHARDS),
        LEASE_TTL_SECONDS: '3',
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        KAFKA_MAX_WAIT_MS: '20',
        BUS_REQUEST_TIMEOUT_MS: '8000',
        IDEMPOTENCY_LEASE_SECONDS: '1',
      },
      instances: options.instances,
      // Ten processes starting on two cores take minutes.
      startTimeoutMs: 240_000,
      echo: process.env['TOPOLOGY_VERBOSE']
        ? (app, line) => process.stdout.write(`[${app}] ${line}\n`)
        : undefined,
    });
    this.balancer = await startRoundRobinProxy(() => this.topology.running('gateway').map((g) => g.port));
  }

  async stop(): Promise<void> {
    await this.balancer?.close();
    await this.topology?.stopAll();
    await this.store?.close();
    await Promise.all([this.sandbox?.stop(), this.infra?.stop({ failed: this.failed })]);
    await this.receiver?.close();
  }
}

/** A harness started before the enclosing describe's tests and stopped after them. */
export function useTopologyHarness(
  startInfra: () => Promise<TopologyInfra>,
  options: TopologyHarnessOptions = {},
): TopologyHarness {
  const harness = new TopologyHarness();
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'topology-'));
    try {
      await harness.start(startInfra, options, dir);
    } catch (err) {
      harness.markFailed();
      throw err;
    }
  }, 600_000);
  afterAll(async () => {
    await harness.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 90_000);
  return harness;
}
