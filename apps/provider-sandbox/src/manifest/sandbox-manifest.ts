import { type Address, type Hex } from 'viem';
import { type SandboxChains, type SandboxContracts, type SandboxToken } from '../chains/start-sandbox-chains';
import { type ProviderFault } from '../faults/provider-fault';
import { type SandboxProvider } from '../pricing/sandbox-provider';

export interface SandboxFeeManifest {
  chainId: number;
  baseFee: { min: string; max: string; start: string };
  tip: string;
  l1DataFee: {
    oracle: Address;
    vault: Address;
    formula: 'ecotone';
    l1BaseFee: string;
    blobBaseFee: string;
    baseFeeScalar: string;
    blobBaseFeeScalar: string;
  } | null;
}

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
  /**
   * Each chain's fee market (docs/sandbox.md "Fees"), wei amounts as text: the base-fee band the sandbox holds it in,
   * the priority tip, and on 8453 the GasPriceOracle's address and L1 data fee inputs.
   */
  fees: SandboxFeeManifest[];
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
