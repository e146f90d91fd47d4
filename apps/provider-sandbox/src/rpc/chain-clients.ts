import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
  type Account,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type SandboxChains } from '../chains/start-sandbox-chains';

export type SandboxPublicClient = PublicClient<Transport, Chain>;
export type SandboxWalletClient = WalletClient<Transport, Chain, Account>;

/**
 * viem clients for the sandbox chains. Polling is fast because anvil mines instantly: the default 4 s
 * receipt polling would dominate every fill.
 */
export class ChainClients {
  private readonly publics = new Map<number, SandboxPublicClient>();
  private readonly viemChains = new Map<number, Chain>();

  constructor(
    chains: SandboxChains['chains'],
    private readonly pollingIntervalMs = 50,
  ) {
    for (const c of chains) {
      const chain = defineChain({
        id: c.chainId,
        name: c.name,
        nativeCurrency: { name: 'Ether', symbol: c.nativeSymbol, decimals: 18 },
        rpcUrls: { default: { http: [c.rpcUrl] } },
      });
      this.viemChains.set(c.chainId, chain);
      this.publics.set(
        c.chainId,
        createPublicClient({ chain, transport: http(c.rpcUrl), pollingInterval: pollingIntervalMs }),
      );
    }
  }

  has(chainId: number): boolean {
    return this.publics.has(chainId);
  }

  public(chainId: number): SandboxPublicClient {
    const client = this.publics.get(chainId);
    if (!client) throw new Error(`no sandbox chain ${chainId}`);
    return client;
  }

  wallet(chainId: number, privateKey: Hex): SandboxWalletClient {
    const chain = this.viemChains.get(chainId);
    if (!chain) throw new Error(`no sandbox chain ${chainId}`);
    return createWalletClient({
      account: privateKeyToAccount(privateKey),
      chain,
      transport: http(chain.rpcUrls.default.http[0]),
      pollingInterval: this.pollingIntervalMs,
    });
  }
}
