import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { type SandboxManifestView, type SandboxProcess, startSandboxProcess } from '@svc/testing';
import { BareStore } from './baseline/bare-store';
import { type BenchOptions } from './bench-options';
import { SERVICE_FEE_RECIPIENT, writeBenchPartnersFile } from './bench-partner';
import { extraTokensFor } from './bench-request';
import { BenchFailure, log } from './bench-failure';
import { type ChildServer, startChildServer } from './child/start-child-server';
import { type BenchPartner } from './load/signed-api-request';
import { startStubProviders, type StubProviders } from './stub/start-stub-providers';

/** Provider URL variables of the service, and the stub route each is sent to. */
const PROVIDER_URLS = {
  relay: 'RELAY_BASE_URL',
  across: 'ACROSS_BASE_URL',
  mayan: 'MAYAN_PRICE_URL',
  'mayan-explorer': 'MAYAN_EXPLORER_URL',
} as const;

/** What the scenarios of one run share: the service and the bare baseline as child processes, and the stubs. */
export interface BenchRig {
  partner: BenchPartner;
  /** The running service; replaced by restartService. */
  readonly service: ChildServer;
  /** Stops the service and starts it again on the same data (`between` runs while none runs); returns the new one. */
  restartService(between?: () => Promise<void>): Promise<ChildServer>;
  bare: ChildServer;
  stub: StubProviders;
  /** Null unless the quote scenario runs. */
  manifest: SandboxManifestView | null;
  /**
   * Another service beside the first, on the same stubs and its own data dir, reading the sandbox's chains
   * (CHAINS_FILE: the sandbox's, or `chainsFile`), with `env` on top: the quote scenario's source gas figure starts
   * one with it and one without. Only while the quote scenario runs; stopped by its `stop` or with the rig. Profiled
   * as the first is under `--profile`.
   */
  startChainService(params: {
    name: string;
    env: Record<string, string>;
    chainsFile?: string;
  }): Promise<ChildServer>;
  /** The service's own SQLite file, opened here as a second writer (as the distributed apps share one). */
  serviceStore: SqliteEventStore;
  bareStore: BareStore;
  stop(): Promise<void>;
}

/**
 * Starts, in this order: the provider sandbox (only for the quote scenario: the stubs record its answers), the
 * stubs, the standalone service (`npm run service`'s entry, SQLite in a temp dir, LOG_LEVEL=warn, its providers
 * pointed at the stubs) and the bare baseline. Whatever started is stopped again if a later step fails.
 */
export async function startBenchRig(options: BenchOptions): Promise<BenchRig> {
  const work = mkdtempSync(join(tmpdir(), 'bench-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s();
  };
  try {
    let sandbox: SandboxProcess | null = null;
    if (options.only.has('quotes')) {
      log('starting the provider sandbox…');
      sandbox = await startSandboxProcess({
        SANDBOX_HOST: '127.0.0.1',
        SANDBOX_EXTRA_TOKENS: String(
          extraTokensFor(Math.max(...options.sourceCounts, options.sourceGasSources)),
        ),
        SANDBOX_FAULTS: '',
        SANDBOX_CHAIN_PORTS: '',
        // Nothing is filled here: its chain watchers may idle.
        SANDBOX_POLL_MS: '1000',
      });
      stops.push(() => sandbox?.stop());
    }
    const env = sandbox?.manifest.env ?? {};
    const stub = await startStubProviders({
      upstreams: Object.fromEntries(
        Object.entries(PROVIDER_URLS).flatMap(([name, variable]) =>
          env[variable] ? [[name, env[variable]]] : [],
        ),
      ),
      delayMs: options.providerDelayMs,
    });
    stops.push(() => stub.close());

    const partnersFile = join(work, 'partners.json');
    const partner = writeBenchPartnersFile(partnersFile);
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    log('starting the service…');
    // The first service reads no chain (nothing it is measured on needs one); startChainService's do.
    const { CHAINS_FILE: sandboxChainsFile, ...providerEnv } = env;
    const serviceEnv = (data: string) => ({
      ...providerEnv,
      ...Object.fromEntries(
        Object.entries(PROVIDER_URLS).map(([name, variable]) => [variable, stub.urlOf(name)]),
      ),
      DATA_DIR: data,
      EVENT_STORE: 'sqlite',
      LOG_LEVEL: 'warn',
      SERVICE_FEE_RECIPIENT,
      PARTNERS_FILE: partnersFile,
    });
    const startService = () =>
      startChildServer({
        name: 'service',
        entry: 'apps/standalone/src/main.ts',
        env: serviceEnv(dataDir),
        ...(options.profileDir ? { profileDir: options.profileDir } : {}),
      });
    if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
    let service = await startService();
    stops.push(() => service.stop());
    const bareDb = join(work, 'bare.sqlite');
    const bare = await startChildServer({
      name: 'bare baseline',
      entry: 'tools/bench/baseline/bare-server.ts',
      env: { BARE_DB: bareDb, PARTNERS_FILE: partnersFile },
    });
    stops.push(() => bare.stop());
    const serviceStore = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
    stops.push(() => serviceStore.close());
    const bareStore = BareStore.open(bareDb);
    stops.push(() => bareStore.close());
    return {
      partner,
      get service() {
        return service;
      },
      restartService: async (between) => {
        await service.stop();
        await between?.();
        service = await startService();
        return service;
      },
      bare,
      stub,
      manifest: sandbox?.manifest ?? null,
      startChainService: async ({ name, env: extra, chainsFile }) => {
        const file = chainsFile ?? sandboxChainsFile;
        if (!file) throw new BenchFailure(`${name}: the sandbox wrote no CHAINS_FILE`);
        const data = mkdtempSync(join(work, 'data-'));
        const child = await startChildServer({
          name,
          entry: 'apps/standalone/src/main.ts',
          env: { ...serviceEnv(data), CHAINS_FILE: file, ...extra },
          ...(options.profileDir ? { profileDir: options.profileDir } : {}),
        });
        stops.push(() => child.stop());
        return child;
      },
      serviceStore,
      bareStore,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
