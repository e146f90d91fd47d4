import { getContractAddress, type Address } from 'viem';
import { SANDBOX_ACCOUNTS } from './sandbox-accounts';

/** What the deployer creates on every sandbox chain, in nonce order. */
export const SANDBOX_DEPLOYMENT_ORDER = [
  'usdc',
  'usdt',
  'weth',
  'relayDepository',
  'acrossSpokePool',
  'mayanSwift',
  'mayanForwarder',
  // Appended, so the seven above keep their addresses.
  'mayanSwiftV2',
  'mayanSwapRouter',
  // Circle's CCTP V2 pair and the Multicall3 Across's finalizer batches mints through (docs/sandbox.md "CCTP").
  'cctpMessageTransmitter',
  'cctpTokenMessenger',
  'multicall3',
] as const;

export type SandboxDeployment = (typeof SANDBOX_DEPLOYMENT_ORDER)[number];

/**
 * The CREATE addresses of the sandbox contracts: the deployer's nonces 0..11 on a fresh chain, so the same on
 * every sandbox chain and every run.
 */
export const SANDBOX_ADDRESSES = Object.fromEntries(
  SANDBOX_DEPLOYMENT_ORDER.map((name, nonce) => [
    name,
    getContractAddress({ from: SANDBOX_ACCOUNTS.deployer.address, nonce: BigInt(nonce) }),
  ]),
) as Record<SandboxDeployment, Address>;
