import {
  createPublicClient,
  defineChain,
  http,
  webSocket,
  type Chain,
  type PublicClient,
  type Transport,
} from 'viem';
import { ConfigError } from '@svc/platform';
import type { ChainConfig } from '../config/chains-config';
import { type ConfirmationPolicy } from '../confirmation/confirmation-policy';
import { ChainNotConfiguredError } from './chain-not-configured-error';

export interface ChainRegistryOptions {
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
  /** Retries of a failed request, with backoff (default 2): enough for a blip, short enough to fail fast. */
  retryCount?: number;
  /**
   * HTTP nodes only: the requests a client issues in one turn of the event loop go as one JSON-RPC batch (viem's
   * `http(url, { batch: true })`), so reads started together cost the node one HTTP request. Default off.
   */
  batch?: boolean;
}

export type ChainClient = PublicClient<Transport, Chain>;

/** The configured chains and one cached viem client per chain (http(s) URLs over HTTP, ws(s) over WebSocket). */
export class ChainRegistry {
  private readonly configs = new Map<number, ChainConfig>();
  private readonly clients = new Map<number, ChainClient>();
  private readonly quorumNodes = new Map<number, ChainClient[]>();

  private batchedSibling: ChainRegistry | null = null;

  constructor(
    configs: readonly ChainConfig[],
    private readonly options: ChainRegistryOptions = {},
  ) {
    for (const config of configs) {
      if (this.configs.has(config.chainId))
        throw new ConfigError(`chain ${config.chainId} is configured twice`);
      this.configs.set(config.chainId, config);
    }
  }

  has(chainId: number): boolean {
    return this.configs.has(chainId);
  }

  /**
   * The same chains with `batch` on, its clients its own (cached there): for a caller whose reads start together,
   * as a quote's source gas reads do. This registry if it batches already.
   */
  batched(): ChainRegistry {
    if (this.options.batch) return this;
    this.batchedSibling ??= new ChainRegistry([...this.configs.values()], { ...this.options, batch: true });
    return this.batchedSibling;
  }

  chainIds(): number[] {
    return [...this.configs.keys()];
  }

  config(chainId: number): ChainConfig {
    const config = this.configs.get(chainId);
    if (!config) throw new ChainNotConfiguredError(chainId);
    return config;
  }

  client(chainId: number): ChainClient {
    const cached = this.clients.get(chainId);
    if (cached) return cached;
    const client = this.createClient(this.config(chainId), this.config(chainId).rpcUrl);
    this.clients.set(chainId, client);
    return client;
  }

  /**
   * When a transaction on the chain is final enough to credit; a config built in code without a policy (tests)
   * counts it final once included (CHAINS_FILE always names one: parseChainsConfig fills in the chain's default).
   */
  confirmationPolicy(chainId: number): ConfirmationPolicy {
    return this.config(chainId).confirmations ?? { blocks: 0 };
  }

  /**
   * Every node of the chain (rpcUrl first, then rpcUrls) and how many must agree that a transaction is final: the
   * configured quorum, by default a majority. One node: itself, quorum 1.
   */
  quorum(chainId: number): { nodes: ChainClient[]; quorum: number } {
    const config = this.config(chainId);
    let nodes = this.quorumNodes.get(chainId);
    if (nodes === undefined) {
      nodes = [this.client(chainId), ...(config.rpcUrls ?? []).map((url) => this.createClient(config, url))];
      this.quorumNodes.set(chainId, nodes);
    }
    return { nodes, quorum: config.quorum ?? Math.floor(nodes.length / 2) + 1 };
  }

  private createClient(config: ChainConfig, rpcUrl: string): ChainClient {
    const socket = /^wss?:/i.test(rpcUrl);
    const transportOptions = {
      timeout: this.options.timeoutMs ?? 10_000,
      retryCount: this.options.retryCount ?? 2,
      retryDelay: 100,
    };
    return createPublicClient({
      chain: toViemChain(config, rpcUrl, socket),
      transport: socket
        ? webSocket(rpcUrl, transportOptions)
        : http(rpcUrl, { ...transportOptions, batch: this.options.batch ?? false }),
    });
  }

  /** Closes WebSocket connections (HTTP clients hold nothing open), the batched sibling's too. */
  async close(): Promise<void> {
    await this.batchedSibling?.close();
    const sockets = [...new Set([...this.clients.values(), ...[...this.quorumNodes.values()].flat()])].map(
      (client) => client.transport as { getRpcClient?: unknown },
    );
    this.clients.clear();
    this.quorumNodes.clear();
    for (const transport of sockets) {
      if (typeof transport.getRpcClient === 'function') {
        const rpc = await (transport.getRpcClient as () => Promise<{ close(): void }>)();
        rpc.close();
      }
    }
  }
}

// Every chain the service supports has an 18-decimal native currency.
function toViemChain(config: ChainConfig, rpcUrl: string, socket: boolean): Chain {
  return defineChain({
    id: config.chainId,
    name: config.name,
    nativeCurrency: { name: config.nativeSymbol, symbol: config.nativeSymbol, decimals: 18 },
    rpcUrls: { default: socket ? { http: [], webSocket: [rpcUrl] } : { http: [rpcUrl] } },
  });
}
