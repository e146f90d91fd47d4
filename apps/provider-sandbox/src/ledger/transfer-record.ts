import { type Address, type Hex } from 'viem';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import { type SandboxScenario } from '../scenarios/sandbox-scenarios';
import { type SettlementPlan } from '../scenarios/settlement-plan';

/**
 * Where a deposit stands. `filling`/`refunding` mean the sandbox's transaction is sent but not yet mined;
 * `delayed` is the hold before a delayed fill; `failed` is final unless a refund follows (failure-then-refund).
 * Each dialect maps these onto its own status vocabulary.
 */
export type TransferStatus =
  'pending' | 'delayed' | 'filling' | 'refunding' | 'filled' | 'refunded' | 'failed';

interface TransferBase {
  /** `<provider>:<chainId>:<txHash>:<logIndex>`: one deposit event. */
  id: string;
  provider: SandboxProvider;
  status: TransferStatus;
  sourceChainId: number;
  sourceTxHash: Hex;
  /** Orders several deposits of one transaction (Across's `index`, Mayan's first order of a tx). */
  sourceLogIndex: number;
  sourceBlockNumber: bigint;
  depositor: Address;
  recipient: Address;
  /** The token the depositor parted with; the zero address when they paid in native ETH. */
  inputToken: Address;
  inputAmount: bigint;
  destinationChainId: number;
  /** The zero address for native ETH output. */
  outputToken: Address;
  /** What the deposit or its quote promised to deliver; see `plan.reported` for what the dialects report. */
  outputAmount: bigint;
  /** The quote's minimum output in output-token base units (the order's minimum when no quote matched). */
  minimumOutput: bigint;
  /** The scenario this provider plays for the deposit (`scenarioFor`): `normal` unless the amount asks otherwise. */
  scenario: SandboxScenario;
  /** How the filler settles it, decided when indexed. */
  plan: SettlementPlan;
  fillTxHash?: Hex;
  refundTxHash?: Hex;
  failReason?: string;
  /** Why no refund follows a final failure (Relay's refundFailReason). */
  refundFailReason?: string;
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
  /** The quote's `refundAddress`: where a failed destination action sends the bridged token. */
  refundAddress: Address | undefined;
  /**
   * The app fee the deposit's MulticallHandler message pays out of the event's `outputAmount` (0n without one):
   * `outputAmount` here is what the recipient is owed, the event's is that plus this fee (across-fee-message.ts).
   */
  appFeeAmount: bigint;
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
