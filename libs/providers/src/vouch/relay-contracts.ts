import { type Address } from 'viem';
import { type ChainContracts, type ContractAllowlist } from './provider-contracts';

/**
 * Relay Depository per chain: relayprotocol/relay-docs @ f0bbe935, references/protocol/depository/addresses.mdx
 * (generated from `GET https://api.relay.link/chains` `protocol.v2.depository`). `approve(depository, amount)` then
 * `depositErc20`/`depositNative` on it is the explicit-deposit flow, the API's default (relay-kit
 * packages/sdk/src/types/api.ts `explicitDeposit` "@default true"; relay-docs features/price-stabilization.mdx).
 */
const DEPOSITORY: Address = '0x4cd00e387622c35bddb9b4c962c136462338bc31';
const DEPOSITORY_ALT: Address = '0x59916da825d2d2ec1bf878d71c88826f6633ecca';
const DEPOSITORY_ZERO: Address = '0xa88cf7864951147a08707ed732237eaa9b1c3b9b';
const DEPOSITORY_CHAINS: readonly [Address, readonly number[]][] = [
  [
    DEPOSITORY,
    [
      1, 10, 56, 100, 130, 137, 146, 169, 185, 288, 324, 360, 466, 480, 690, 747, 999, 1135, 1329, 1514, 1625,
      1868, 1923, 1996, 2020, 2741, 2818, 5031, 5330, 7869, 7897, 8333, 8453, 17071, 33139, 33979, 34443,
      42161, 42170, 42220, 43111, 43114, 43419, 48900, 57073, 60808, 69000, 80094, 81457, 98866, 510003,
      534352, 660279, 747474, 984122, 7777777, 666666666, 1380012617,
    ],
  ],
  [DEPOSITORY_ALT, [25, 1088, 1101, 2911, 5000, 59144, 167000]],
  [DEPOSITORY_ZERO, [543210]],
];

/**
 * Native deposits of the implicit flow: the RelayReceiver (relay-docs references/api/quickstart.mdx
 * `contracts.relayReceiver`; relay-kit packages/sdk/tests/data/executeBridge.ts) and Relay's EVM solver
 * (relay-docs references/api/api_resources/contract-addresses.mdx "Solver Addresses"). Targets only.
 */
const RECEIVER: Address = '0xa5f565650890fba1824ee0f21ebbbf660a179934';
const SOLVER: Address = '0xf70da97812cb96acdf810712aa562db8dfa3dbef';

/**
 * Source-chain swaps: the ApprovalProxy takes the approval and hands the tokens to the Router in the same call;
 * the Router runs arbitrary calls, so it is a target (native input) but never a spender. v2, v2.1 and v3 in their
 * London, Cancun and zkEVM builds: relay-docs references/api/api_resources/contract-addresses.mdx
 * "Contract Versions" (the docs say not every chain has the same address, hence all builds).
 */
const APPROVAL_PROXIES: readonly Address[] = [
  '0xcd740b0e005cb8647f9baf4febedc8753ceef861',
  '0xbbbfd134e9b44bfb5123898ba36b01de7ab93d98',
  '0xaec31c3780521c34ca59dc2eb5fb9ee2e285cebe',
  '0x953c95146eb8ce763f35caf2f1d46ddf6a33bea2',
  '0x58cc3e0aa6cd7bf795832a225179ec2d848ce3e7',
  '0x8754bc615047de01228a7527b712806a71a8dc9a',
  '0xccc88a9d1b4ed6b0eaba998850414b24f1c315be',
  '0xf6e54bbf91e564fcf0df3ed9f2dd82913e9232c3',
];
const ROUTERS: readonly Address[] = [
  '0x113a327221d2c4660684449bfc39bc14ad1aaf38',
  '0xf5042e6ffac5a625d4e7848e0b01373d8eb9e222',
  '0x8fdceeda2951a9747feaf25311435448bce47b2a',
  '0xb758f3bfa7b9d39ef5457d7c7ffb3702f2ad3982',
  '0x3ec130b627944cad9b2750300ecb0a695da522b6',
  '0x9ef6d3c2f60d7b9008d74cab1fc0f899c957c819',
  '0xb92fe925dc43a0ecde6c8b1a2709c170ec4fff4f',
  '0xe16870b028704e38dbc254a84d3f72c8ba345ca9',
];

function relayOn(depository: Address): ChainContracts {
  return {
    targets: [depository, RECEIVER, SOLVER, ...APPROVAL_PROXIES, ...ROUTERS],
    spenders: [depository, ...APPROVAL_PROXIES],
  };
}

/** Relay's published production contracts, per EVM chain Relay serves. */
export const RELAY_CONTRACTS: ContractAllowlist = new Map(
  DEPOSITORY_CHAINS.flatMap(([depository, chainIds]) =>
    chainIds.map((chainId): [number, ChainContracts] => [chainId, relayOn(depository)]),
  ),
);
