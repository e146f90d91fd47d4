import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { acrossRoutes } from './across/across.routes';
import { CctpBurnBook } from './cctp/cctp-burn-book';
import { CCTP_MINT_BATCH_WINDOW_MS, CctpFinalizer } from './cctp/cctp-finalizer';
import { adminRoutes } from './admin/admin.routes';
import { isExtraTokenSymbol } from './chains/sandbox-deployment-plan';
import { startSandboxChains, type SandboxChains } from './chains/start-sandbox-chains';
import { FaultRegistry } from './faults/fault-registry';
import { parseProviderFaults } from './faults/parse-provider-faults';
import { type ProviderFault } from './faults/provider-fault';
import { ACROSS_FILL_BATCH_WINDOW_MS, AcrossFillBatcher } from './fill/across-fill-batcher';
import { TokenSender } from './fill/token-sender';
import { TransferSettler } from './fill/transfer-settler';
import { startHttpServer, type HttpServerHandle } from './http/start-http-server';
import { QuoteBook } from './ledger/quote-book';
import { TransferBook } from './ledger/transfer-book';
import { buildManifest } from './manifest/build-manifest';
import { repoRoot } from './manifest/repo-root';
import { type SandboxManifest } from './manifest/sandbox-manifest';
import { manifestFilePaths, writeManifestFiles } from './manifest/write-manifest-files';
import { mayanRoutes } from './mayan/mayan.routes';
import { DEFAULT_PRICES, extraTokenPrices, type PriceTable } from './pricing/price-table';
import { DEFAULT_ECONOMICS, type ProviderEconomics } from './pricing/provider-economics';
import { SANDBOX_PROVIDERS, type SandboxProvider } from './pricing/sandbox-provider';
import { relayRoutes } from './relay/relay.routes';
import { ChainClients } from './rpc/chain-clients';
import { type SandboxContext } from './sandbox-context';
import { TokenDirectory } from './tokens/token-directory';
import { DepositWatcher } from './watch/deposit-watcher';
import { indexDepositLogs } from './watch/index-deposit-logs';

const DEFAULT_FAILURE_HOLD_MS = 3000;

export interface StartSandboxOptions {
  /** HTTP port; default 7700, 0 picks a free one. */
  port?: number;
  host?: string;
  /** How long a filler waits after indexing a deposit before delivering; default 1500 ms. */
  fillDelayMs?: number;
  /**
   * How long Relay reports `failure` before a failure-then-refund deposit is refunded, and `delayed` before a
   * delayed deposit is filled (scenarios 902 and 910); default 3000 ms.
   */
  failureHoldMs?: number;
  /** Deposit-event polling interval per chain; default 250 ms. */
  pollIntervalMs?: number;
  faults?: ProviderFault[];
  /**
   * Extra 18-decimal test tokens per chain (BENCH01…, priced $1), deployed after the standard contracts so their
   * addresses never move; default 0. Ignored with `chains`.
   */
  extraTokens?: number;
  /** Pins chain RPC ports (chainId → port); by default free ports are used. */
  chainPorts?: Partial<Record<number, number>>;
  /** Where the anvil nodes listen (default 127.0.0.1; `0.0.0.0` in a container other containers read from). */
  chainHost?: string;
  /**
   * The host name the manifest and `chains.json` give the chains' RPC URLs (default 127.0.0.1): in a container
   * network, the sandbox's service name, so the other containers' CHAINS_FILE reaches the nodes.
   */
  publicHost?: string;
  /** Chains started elsewhere; the sandbox then leaves stopping them to the caller. */
  chains?: SandboxChains;
  /** Where `manifest.json` and `chains.json` go; default `<repo>/.sandbox`; null writes nothing. */
  manifestDir?: string | null;
  prices?: Partial<PriceTable>;
  economics?: Partial<Record<SandboxProvider, Partial<ProviderEconomics>>>;
  /** Seeds the chains' base-fee walks (docs/sandbox.md "Fees"), so a run's fees can be replayed; default 1. */
  feeSeed?: number;
  /** Operational messages (a failed fill, an unmatched deposit); default stderr. */
  log?: (line: string) => void;
}

export interface RunningSandbox {
  url: string;
  manifest: SandboxManifest;
  chains: SandboxChains;
  /** Resolves once the sandbox has charged the L1 data fees of every block up to `blockNumber` on the chain. */
  l1FeesCharged(chainId: number, blockNumber: bigint): Promise<void>;
  /** Replaces every fault in force; an empty list clears them. */
  setFaults(faults: ProviderFault[]): void;
  stop(): Promise<void>;
}

/**
 * Starts the provider sandbox: anvil chains with the sandbox contracts, the relay/across/mayan HTTP
 * dialects, a deposit watcher per chain and the fillers; writes the manifest unless told not to.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const started = performance.now();
  const startedAt = new Date();
  const log = options.log ?? ((line: string) => process.stderr.write(`provider-sandbox: ${line}\n`));
  const faults = new FaultRegistry(parseProviderFaults(options.faults ?? []));
  const ownsChains = !options.chains;
  const chains =
    options.chains ??
    (await startSandboxChains({
      ports: options.chainPorts,
      extraTokens: options.extraTokens,
      host: options.chainHost,
      feeSeed: options.feeSeed,
      log,
    }));
  const extraSymbols = [...new Set(chains.tokens.map((t) => t.symbol).filter(isExtraTokenSymbol))];
  const clients = new ChainClients(chains.chains);
  const now = () => Date.now();
  const context: SandboxContext = {
    chains,
    clients,
    tokens: new TokenDirectory(chains.tokens),
    quotes: new QuoteBook(),
    transfers: new TransferBook(),
    cctpBurns: new CctpBurnBook(),
    faults,
    prices: { ...DEFAULT_PRICES, ...extraTokenPrices(extraSymbols), ...options.prices } as PriceTable,
    economics: Object.fromEntries(
      SANDBOX_PROVIDERS.map((p) => [p, { ...DEFAULT_ECONOMICS[p], ...options.economics?.[p] }]),
    ) as Record<SandboxProvider, ProviderEconomics>,
    now,
  };
  const fillDelayMs = options.fillDelayMs ?? 1500;
  const failureHoldMs = options.failureHoldMs ?? DEFAULT_FAILURE_HOLD_MS;
  const sender = new TokenSender(clients, chains.accounts.fillers);
  const acrossFills = new AcrossFillBatcher({
    sender,
    pool: (chainId) => chains.contracts.find((c) => c.chainId === chainId)!.acrossSpokePool,
    windowMs: () => faults.get('across')?.batchFillsMs ?? ACROSS_FILL_BATCH_WINDOW_MS,
  });
  const settler = new TransferSettler({
    transfers: context.transfers,
    sender,
    acrossFills,
    fillDelayMs: () => fillDelayMs,
    failureHoldMs: () => failureHoldMs,
    chainTime: async (chainId) =>
      Number((await clients.public(chainId).getBlock({ blockTag: 'latest' })).timestamp),
    now,
    onError: (error, t) => log(`${t.provider} settlement of ${t.sourceTxHash} failed: ${String(error)}`),
  });
  // Attests CCTP burns after the fill delay and mints them in batches (docs/sandbox.md "CCTP").
  const cctpFinalizer = new CctpFinalizer({
    clients,
    chains: chains.contracts.map((c) => ({
      chainId: c.chainId,
      messageTransmitter: c.cctpMessageTransmitter,
      multicall3: c.multicall3,
    })),
    burns: context.cctpBurns,
    sender,
    attesterKey: chains.accounts.deployer.privateKey,
    attestationDelayMs: () => fillDelayMs,
    batchWindowMs: () => faults.get('across')?.batchMintsMs ?? CCTP_MINT_BATCH_WINDOW_MS,
    pollIntervalMs: options.pollIntervalMs ?? 250,
    now,
    log,
  });
  const watchers = chains.contracts.map(
    (c) =>
      new DepositWatcher({
        client: clients.public(c.chainId),
        addresses: [c.relayDepository, c.acrossSpokePool, c.mayanSwift, c.mayanSwiftV2],
        pollIntervalMs: options.pollIntervalMs ?? 250,
        onLogs: async (logs) => {
          const { transfers, skipped } = await indexDepositLogs(context, c.chainId, logs);
          transfers.forEach((t) => settler.accept(t));
          skipped.forEach((l) =>
            log(`chain ${c.chainId}: no quote matches ${l.eventName} in ${l.transactionHash}`),
          );
        },
        onError: (error) => log(`chain ${c.chainId}: deposit poll failed: ${String(error)}`),
      }),
  );

  let server: HttpServerHandle | undefined;
  const stop = async () => {
    await Promise.all(watchers.map((w) => w.stop()));
    await cctpFinalizer.stop();
    await settler.stop();
    await server?.close();
    if (ownsChains) await chains.stop();
  };
  try {
    await Promise.all([...watchers.map((w) => w.start()), cctpFinalizer.start()]);
    // The manifest names the server's URL, so the /manifest route reads it once it exists.
    const current: { manifest?: SandboxManifest } = {};
    server = await startHttpServer({
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 7700,
      routes: [
        ...relayRoutes(context),
        ...acrossRoutes(context),
        ...mayanRoutes(context),
        ...adminRoutes({
          faults,
          manifest: () => ({ ...current.manifest!, faults: faults.list() }),
          chains: chains.chains,
          l1Fees: chains.l1Fees,
        }),
      ],
      onError: (error) => log(`request failed: ${String(error)}`),
    });
    const dir = options.manifestDir === undefined ? join(repoRoot(), '.sandbox') : options.manifestDir;
    const files = dir === null ? null : manifestFilePaths(dir);
    const manifest = buildManifest({
      url: server.url,
      chains,
      faults: faults.list(),
      files,
      startedAt,
      startupMs: Math.round(performance.now() - started),
      publicHost: options.publicHost,
      failureHoldMs,
    });
    current.manifest = manifest;
    if (dir !== null) await writeManifestFiles(dir, manifest, chains);
    const running: RunningSandbox = {
      url: server.url,
      manifest,
      chains,
      l1FeesCharged: (chainId, blockNumber) => chains.l1FeesCharged(chainId, blockNumber),
      setFaults: (list) => faults.replace(parseProviderFaults(list)),
      stop,
    };
    return running;
  } catch (error) {
    await stop();
    throw error;
  }
}
