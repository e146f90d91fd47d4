import { type Address, type Hex } from 'viem';
import { type SandboxChains, type SandboxContracts, type SandboxToken } from '../chains/start-sandbox-chains';
import { type ProviderFault } from '../faults/provider-fault';
import { type SandboxProvider } from '../pricing/sandbox-provider';

/** What a client of the sandbox needs to know: where everything is, who holds funds, and the service's env. */
export interface SandboxManifest {
  startedAt: string;
  startupMs: number;
  url: string;
  chains: SandboxChains['chains'];
  tokens: SandboxToken[];
  contracts: SandboxContracts[];
  /** Anvil's public dev keys: funded with every sandbox token on every chain. */
  wallets: {
    users: { address: Address; privateKey: Hex }[];
    fillers: Record<SandboxProvider, { address: Address }>;
  };
  providers: {
    relay: { baseUrl: string };
    across: { baseUrl: string };
    mayan: { priceUrl: string; explorerUrl: string; forwarderAddress: Address };
  };
  faults: ProviderFault[];
  /**
   * The magic input-amount suffixes (docs/sandbox.md "Scenarios"), for clients that cannot import the sandbox,
   * and the failure hold in ms. `quoteSuffixes` are played at quote time (zero gas, rate limited).
   */
  scenarios: {
    failureHoldMs: number;
    suffixes: Record<string, string>;
    quoteSuffixes: Record<string, string>;
  };
  files: { manifest: string; chains: string } | null;
  /** Environment for the service, e.g. `RELAY_BASE_URL`; `CHAINS_FILE` only when the files were written. */
  env: Record<string, string>;
}
