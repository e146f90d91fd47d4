import { type ChildProcess } from 'node:child_process';
import { findFreePort } from '../anvil/find-free-port';
import { againWhilePortTaken } from './again-while-port-taken';
import { spawnEntry, stopChild, waitForLine } from './child-process';

/** The five apps of the distributed composition, each its own process. */
export const DISTRIBUTED_APPS = [
  'gateway',
  'quoting',
  'execution',
  'settlement-tracker',
  'webhook-dispatcher',
] as const;
export type DistributedAppName = (typeof DISTRIBUTED_APPS)[number];

export interface AppProcess {
  name: DistributedAppName;
  instanceId: string;
  port: number;
  /** Where it serves /readyz and /metrics: OPS_PORT for the gateway, `port` for the others. */
  opsPort: number;
  child: ChildProcess;
  lines: string[];
}

export interface TopologyOptions {
  /** Shared by every app: BUS=kafka, KAFKA_BROKERS, EVENT_STORE and its location, PARTNERS_FILE, chains, providers. */
  env: NodeJS.ProcessEnv;
  /** Instances per app (default 1 each). */
  instances?: Partial<Record<DistributedAppName, number>>;
  /** Every output line of every app, for a verbose run. */
  echo?: (app: string, line: string) => void;
  /** How long one app may take to start and become ready (default 90 s). */
  startTimeoutMs?: number;
  /** Fixed ports for the first instance of an app (`npm run distributed`); the others, and by default all, take free ones. */
  ports?: Partial<Record<DistributedAppName, { port: number; opsPort?: number }>>;
}

export interface Topology {
  apps: AppProcess[];
  /** The first running instance of an app (or the index-th). */
  get(name: DistributedAppName, index?: number): AppProcess;
  /** The running instances of an app, oldest first. */
  running(name: DistributedAppName): AppProcess[];
  gatewayPort(): number;
  /** Starts one more instance of an app (same env), ready when this resolves. */
  start(name: DistributedAppName): Promise<AppProcess>;
  /** SIGKILL: the process dies without any shutdown (no lease handover, no group leave). */
  kill(app: AppProcess): Promise<void>;
  /** SIGSTOP, then SIGCONT after `ms`: a stalled process (its timers fall behind, its leases lapse), not a dead one. */
  pause(app: AppProcess, ms: number): Promise<void>;
  /** SIGTERM: a graceful stop. */
  stop(app: AppProcess): Promise<void>;
  stopAll(): Promise<void>;
}

/**
 * Starts the five apps as separate processes (`apps/<name>/src/main.ts`, exactly what the container runs), each on
 * its own loopback port, and resolves once every one answers /readyz 200 (event store reachable, Kafka consumer in
 * its group). The features start in parallel, one wave per replica (the first instance of each, then the second,
 * ...: each wave joins groups that already run, as a scale-out does); the gateways last, once the features they
 * call are consuming.
 */
export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const apps: AppProcess[] = [];
  const counters = new Map<DistributedAppName, number>();

  const start = async (name: DistributedAppName): Promise<AppProcess> => {
    const index = counters.get(name) ?? 0;
    counters.set(name, index + 1);
    const fixed = index === 0 ? options.ports?.[name] : undefined;
    // An app exits with EADDRINUSE when a port found free was taken before it bound it: it starts again on fresh ports.
    return againWhilePortTaken(
      async () => {
        const app = await launch(name, index, fixed);
        try {
          await untilReady(app);
          return app;
        } catch (err) {
          if (app.child.exitCode === null) throw err; // still running: stopped with the others
          apps.splice(apps.indexOf(app), 1);
          await outputDrained(app.child); // the listen error can come after the exit
          throw Object.assign(err as Error, { portTaken: app.lines.some((l) => /EADDRINUSE/.test(l)) });
        }
      },
      (err) => !fixed && (err as { portTaken?: boolean }).portTaken === true,
    );
  };

  const launch = async (
    name: DistributedAppName,
    index: number,
    fixed: { port: number; opsPort?: number } | undefined,
  ): Promise<AppProcess> => {
    const port = fixed?.port ?? (await findFreePort());
    const opsPort = name === 'gateway' ? (fixed?.opsPort ?? (await findFreePort())) : port;
    const instanceId = `${name}-${index}`;
    const lines: string[] = [];
    const child = spawnEntry(
      `apps/${name}/src/main.ts`,
      {
        ...options.env,
        PORT: String(port),
        OPS_PORT: String(opsPort),
        HOST: '127.0.0.1',
        INSTANCE_ID: instanceId,
      },
      (line) => {
        lines.push(line);
        options.echo?.(instanceId, line);
      },
    );
    const app: AppProcess = { name, instanceId, port, opsPort, child, lines };
    apps.push(app);
    return app;
  };

  const untilReady = async (app: AppProcess): Promise<void> => {
    const timeoutMs = options.startTimeoutMs ?? 90_000;
    // The start line is logged at info: at a quieter LOG_LEVEL (the bench's warn) /readyz alone says it is up.
    if (!/^(warn|error|fatal|silent)$/.test(options.env['LOG_LEVEL'] ?? '')) {
      await waitForLine(app.child, app.lines, new RegExp(`"msg":"${app.name} started"`), timeoutMs);
    }
    await waitForReady(app, timeoutMs);
  };

  const running = () => apps.filter((a) => a.child.exitCode === null && a.child.signalCode === null);
  const topology: Topology = {
    apps,
    get(name, index = 0) {
      const found = topology.running(name)[index];
      if (!found) throw new Error(`no running ${name} instance #${index}`);
      return found;
    },
    running: (name) => running().filter((a) => a.name === name),
    gatewayPort: () => topology.get('gateway').port,
    start,
    async kill(app) {
      if (app.child.exitCode !== null || app.child.signalCode !== null) return;
      const exited = new Promise<void>((r) => app.child.once('exit', () => r()));
      app.child.kill('SIGKILL');
      await exited;
    },
    async pause(app, ms) {
      app.child.kill('SIGSTOP');
      try {
        await new Promise((r) => setTimeout(r, ms));
      } finally {
        app.child.kill('SIGCONT');
      }
    },
    stop: (app) => stopChild(app.child, 15_000),
    async stopAll() {
      await Promise.all(running().map((a) => stopChild(a.child, 15_000)));
    },
  };

  try {
    const features = DISTRIBUTED_APPS.filter((n) => n !== 'gateway');
    const count = (name: DistributedAppName) => options.instances?.[name] ?? 1;
    const waves = Math.max(...features.map(count));
    for (let wave = 0; wave < waves; wave++) {
      await Promise.all(features.filter((name) => count(name) > wave).map((name) => start(name)));
    }
    for (let i = 0; i < (options.instances?.gateway ?? 1); i++) await start('gateway');
    return topology;
  } catch (err) {
    await topology.stopAll();
    throw err;
  }
}

/** Once the child's output is read to its end ('close'), or after 2 s. */
function outputDrained(child: ChildProcess): Promise<void> {
  if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false)
    return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function waitForReady(app: AppProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`${app.instanceId} exited:\n${app.lines.join('\n')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${app.opsPort}/readyz`);
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${app.instanceId} not ready within ${timeoutMs} ms (last /readyz: ${last})`);
}
