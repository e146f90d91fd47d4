import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaBusTopics } from '@svc/messaging';
import { PartnerClient } from '@svc/partner-client';
import {
  findFreePort,
  probeKafkaBroker,
  repoRoot,
  runSandboxFlow,
  type RunningKafkaBroker,
  type SandboxProcess,
  startKafkaBroker,
  signedRequest,
  startSandboxProcess,
  stopChild,
} from '@svc/testing';
import { devToolsIn, NATIVE_SOURCES, prepareProdApp, type ProdApp } from './prod-app';
import { type BuiltAppProcess, ISOLATED_NODE_ARGS, spawnBuiltApp, waitForReady } from './run-built';

/**
 * The runtime image's contents, made in a temporary folder: the apps built to dist/ (`npm run build`'s compiler),
 * package.json and package-lock.json, and the production dependencies alone (`npm ci --omit=dev --omit=optional`,
 * the KurrentDB bridge copied in, type declarations removed).
 * From there the built standalone service, then the five built apps of the distributed composition over a real Kafka
 * broker, run on this Node: a signed ping and a quote on the provider sandbox through the partner SDK over HTTP on
 * loopback, and (distributed) an attempt driven through the gateway to `settled`.
 */
const PARTNERS_FILE = join(repoRoot, 'config', 'partners.dev.json');
const partner = (
  JSON.parse(readFileSync(PARTNERS_FILE, 'utf8')) as {
    partners: { partnerId: string; secret: string; authVersion: 1 | 2 }[];
  }
).partners[0];
const kafka = probeKafkaBroker();
/** The five apps of the distributed composition, each its own process, as the images run them. */
const DISTRIBUTED_APPS = ['gateway', 'quoting', 'execution', 'settlement-tracker', 'webhook-dispatcher'];

describe('the built apps on production dependencies alone', () => {
  let dir: string;
  let app: ProdApp;
  let sandbox: SandboxProcess;
  const started: BuiltAppProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prod-app-'));
    [app, sandbox] = await Promise.all([
      prepareProdApp({ root: repoRoot, dir, apps: ['standalone', ...DISTRIBUTED_APPS] }),
      startSandboxProcess(),
    ]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(started.map((p) => stopChild(p.child)));
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const quoteRequest = () => {
    const usdc = (chainId: number) => sandbox.token(chainId, 'USDC');
    return {
      walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      sources: [{ chainId: 1, address: usdc(1), amount: '250000000', symbol: 'USDC', decimals: 6 }],
      target: {
        chainId: 8453,
        address: usdc(8453),
        targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
      },
    };
  };
  const pingAndQuote = async (baseUrl: string) => {
    const client = new PartnerClient({ baseUrl, ...partner });
    const ping = await client.ping();
    const quote = await client.quote(quoteRequest());
    return {
      ping: [ping.status, ping.body],
      quote: [quote.status, (quote.body as { quoteStatus?: string }).quoteStatus],
    };
  };
  const expected = {
    ping: [200, { apiVersion: '1', ok: true, partnerId: partner.partnerId }],
    quote: [200, 'ready'],
  };
  const start = (name: string, env: NodeJS.ProcessEnv) => {
    const p = spawnBuiltApp(app.dir, name, {
      ...sandbox.manifest.env,
      PARTNERS_FILE,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    });
    started.push(p);
    return p;
  };

  it('holds dist, package files and production dependencies, without a dev tool', () => {
    const nodeModules = realpathSync(join(app.dir, 'node_modules'));
    expect(devToolsIn(nodeModules)).toEqual([]);
    expect(devToolsIn(join(repoRoot, 'node_modules'))).toContain('@swc/core'); // the check sees a dev install
    for (const name of ['@nestjs/core', 'viem', 'better-sqlite3', 'kafkajs', 'pino'])
      expect(existsSync(join(nodeModules, name, 'package.json'))).toBe(true);
    // The SQLite sources are compiled into the binding, which stays (the service below runs on it).
    expect(NATIVE_SOURCES.filter((folder) => existsSync(join(nodeModules, folder)))).toEqual([]);
    expect(existsSync(join(nodeModules, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(
      true,
    );
    expect(app.build.apps.map((a) => a.entry)).toEqual(
      ['standalone', ...DISTRIBUTED_APPS].map((name) => `apps/${name}/src/main.js`),
    );
  });

  it('creates an EventStoreDB client there: the KurrentDB native bridge is in the production install', () => {
    // EVENT_STORE=eventstoredb (the shipped manifests' setting) creates this client at boot; it loads the bridge,
    // an optional per-platform package that `--omit=optional` leaves out unless it is copied in.
    const created = spawnSync(
      process.execPath,
      [
        ...ISOLATED_NODE_ARGS,
        '-e',
        "require('@kurrent/kurrentdb-client').KurrentDBClient.connectionString('kurrentdb://127.0.0.1:2113?tls=false'); console.log('created')",
      ],
      { cwd: app.dir, encoding: 'utf8' },
    );
    expect([created.status, created.stdout.trim(), created.stderr]).toEqual([0, 'created', '']);
    const nodeModules = realpathSync(join(app.dir, 'node_modules'));
    const declarations = readdirSync(nodeModules, { recursive: true }).filter((f) =>
      /\.d\.(ts|mts|cts)$/.test(String(f)),
    );
    expect(declarations).toEqual([]);
  });

  it('runs the built standalone service: a signed ping and a quote on the sandbox', async () => {
    const service = start('standalone', {
      PORT: '0',
      OPS_PORT: '0',
      DATA_DIR: join(dir, 'standalone-data'),
    });
    const url = await lineMatch(service, /listening on (http:\/\/\S+)/, 30_000);
    const ops = await lineMatch(service, /probes and metrics (http:\/\/\S+)/, 1_000);
    await waitForReady(service, `${ops}/readyz`, 30_000);
    expect(await pingAndQuote(url)).toEqual(expected);
  }, 60_000);

  (kafka.available ? it : it.skip)(
    'runs the five built apps over Kafka: a signed ping and a quote through the gateway, and an attempt to settled',
    async () => {
      let broker: RunningKafkaBroker | undefined;
      try {
        broker = await startKafkaBroker({ topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, 1])) });
        const bus = {
          BUS: 'kafka',
          KAFKA_BROKERS: broker.brokers.join(','),
          KAFKA_MAX_WAIT_MS: '20',
          EVENT_STORE: 'sqlite',
          DATA_DIR: join(dir, 'distributed-data'),
          SETTLEMENT_TICK_MS: '200',
        };
        // The four workers first (each serves /readyz on its PORT), then the gateway in front of them.
        await Promise.all(
          DISTRIBUTED_APPS.filter((name) => name !== 'gateway').map(async (name) => {
            const port = await findFreePort();
            const worker = start(name, { ...bus, PORT: String(port), INSTANCE_ID: `${name}-0` });
            await waitForReady(worker, `http://127.0.0.1:${port}/readyz`, 90_000);
          }),
        );
        const [port, opsPort] = [await findFreePort(), await findFreePort()];
        const gateway = start('gateway', {
          ...bus,
          PORT: String(port),
          OPS_PORT: String(opsPort),
          INSTANCE_ID: 'gateway-0',
        });
        await waitForReady(gateway, `http://127.0.0.1:${opsPort}/readyz`, 90_000);
        expect(await pingAndQuote(`http://127.0.0.1:${port}`)).toEqual(expected);

        // The wallet's part on the sandbox, the evidence reported, then the built tracker settles it.
        const { attemptId } = await runSandboxFlow({ port, partner, sandbox, userIndex: 0 });
        const status = async () =>
          (
            (
              await signedRequest({
                port,
                partner,
                method: 'GET',
                path: `/api/external/attempts/${attemptId}/status`,
              })
            ).json as { status?: string }
          ).status;
        const deadline = Date.now() + 90_000;
        let last = await status();
        while (last !== 'settled' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 250));
          last = await status();
        }
        expect(last).toBe('settled');
      } finally {
        await Promise.all(started.map((p) => stopChild(p.child, 15_000)));
        await broker?.stop();
      }
    },
    300_000,
  );
});

/** The first capture of `pattern` in the app's output. */
async function lineMatch(p: BuiltAppProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const line of p.lines) {
      const match = pattern.exec(line);
      if (match?.[1] !== undefined) return match[1];
    }
    if (p.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`no ${pattern} (exit ${p.child.exitCode}):\n${p.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
