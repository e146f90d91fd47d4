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
import { ChainNotConfiguredError } from './chain-not-configured-error';

export interface ChainRegistryOptions {
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
  /** Retries of a failed request, with backoff (default 2): enough for a blip, short enough to fail fast. */
  retryCount?: number;
}

export type ChainClient = PublicClient<Transport, Chain>;

/** The configured chains and one cached viem client per chain (http(s) URLs over HTTP, ws(s) over WebSocket). */
export class ChainRegistry {
  private readonly configs = new Map<number, ChainConfig>();
  private readonly clients = new Map<number, ChainClient>();

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
    const config = this.config(chainId);
    const socket = /^wss?:/i.test(config.rpcUrl);
    const transportOptions = {
      timeout: this.options.timeoutMs ?? 10_000,
      retryCount: this.options.retryCount ?? 2,
      retryDelay: 100,
    };
    const client = createPublicClient({
      chain: toViemChain(config, socket),
      transport: socket ? webSocket(config.rpcUrl, transportOptions) : http(config.rpcUrl, transportOptions),
    });
    this.clients.set(chainId, client);
    return client;
  }

  /** Closes WebSocket connections (HTTP clients hold nothing open). */
  async close(): Promise<void> {
    const sockets = [...this.clients.values()].map(
      (client) => client.transport as { getRpcClient?: unknown },
    );
    this.clients.clear();
    for (const transport of sockets) {
      if (typeof transport.getRpcClient === 'function') {
        const rpc = await (transport.getRpcClient as () => Promise<{ close(): void }>)();
        rpc.close();
      }
    }
  }
}

// Every chain the service supports has an 18-decimal native currency.
function toViemChain(config: ChainConfig, socket: boolean): Chain {
  return defineChain({
    id: config.chainId,
    name: config.name,
    nativeCurrency: { name: config.nativeSymbol, symbol: config.nativeSymbol, decimals: 18 },
    rpcUrls: { default: socket ? { http: [], webSocket: [config.rpcUrl] } : { http: [config.rpcUrl] } },
  });
}
