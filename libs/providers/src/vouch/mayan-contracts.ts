import { type Address } from 'viem';
import { type ContractAllowlist } from './provider-contracts';

/** The EVM chains Mayan serves (swap-sdk src/utils.ts chain map; mayan/mayan-chains.ts). */
const MAYAN_EVM_CHAIN_IDS = [1, 10, 56, 130, 137, 143, 146, 999, 8453, 42161, 43114, 59144];

/**
 * Mayan returns no transaction: the adapter builds `approve(forwarder)` and `forward*` on the forwarder itself, one
 * address on every chain (MAYAN_FORWARDER_ADDRESS, default `0x337685fdaB40D39bd02028545a4FfA7D287cC3E2`,
 * swap-sdk @ cd5a34ca src/addresses.ts MAYAN_FORWARDER_CONTRACT). The Swift contract it forwards to comes from the
 * quote, and the forwarder itself refuses any it does not list (`mayanProtocols`, error `UnsupportedProtocol`,
 * swap-sdk src/evm/MayanForwarderArtifact.ts).
 */
export function mayanContracts(forwarder: Address): ContractAllowlist {
  return new Map(
    MAYAN_EVM_CHAIN_IDS.map((chainId) => [chainId, { targets: [forwarder], spenders: [forwarder] }]),
  );
}
