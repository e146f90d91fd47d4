import { type Address, type Hex } from 'viem';
import { type SandboxProvider } from '../pricing/sandbox-provider';

/**
 * Where a deposit stands. `filling`/`refunding` mean the sandbox's transaction is sent but not yet mined;
 * each dialect maps these onto its own status vocabulary.
 */
export type TransferStatus = 'pending' | 'filling' | 'refunding' | 'filled' | 'refunded' | 'failed';

interface TransferBase {
  /** `<provider>:<chainId>:<txHash>:<logIndex>`: one deposit event. */
  id: string;
  provider: SandboxProvider;
  status: TransferStatus;
  sourceChainId: number;
  sourceTxHash: Hex;
  sourceBlockNumber: bigint;
  depositor: Address;
  recipient: Address;
  /** The token the depositor parted with; the zero address when they paid in native ETH. */
  inputToken: Address;
  inputAmount: bigint;
  destinationChainId: number;
  /** The zero address for native ETH output. */
  outputToken: Address;
  /** What the filler will deliver (or delivered). */
  outputAmount: bigint;
  /** Refund instead of fill: the refund fault, or Relay's debug-force-refund referrer. */
  refund: boolean;
  fillTxHash?: Hex;
  refundTxHash?: Hex;
  failReason?: string;
  createdAt: number;
  updatedAt: number;
}

export interface RelayTransfer extends TransferBase {
  provider: 'relay';
  requestId: Hex;
}

export interface AcrossTransfer extends TransferBase {
  provider: 'across';
  depositId: number;
  /** The token named in the deposit event (the chain's WETH for a native deposit). */
  eventInputToken: Address;
  quoteTimestamp: number;
  fillDeadline: number;
  exclusivityDeadline: number;
  exclusiveRelayer: Address;
  message: Hex;
}

export interface MayanTransfer extends TransferBase {
  provider: 'mayan';
  orderKey: Hex;
  trader: Address;
  /** In min(8, output decimals) decimals, as the Swift order carries it. */
  minAmountOut: bigint;
  deadline: bigint;
  quoteId: string | undefined;
}

export type TransferRecord = RelayTransfer | AcrossTransfer | MayanTransfer;
