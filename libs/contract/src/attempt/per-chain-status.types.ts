import { type AmountBasis } from '../enums/amount-basis';
import { type ChainStatus } from './chain-status';
import { type LegErrorCode, type LegStatus } from './leg-status';
import { type SubmitMethod } from '../enums/submit-method';
import { type SourceTokenPreview } from '../prepare/source-token-preview.types';

/** spec: StatusLeg. The spec leaves the status values open; ours are LEG_STATUSES. */
export interface StatusLeg {
  legIndex: number;
  outputTargetId: string;
  provider: string;
  sourceChainId: number;
  sourceTokens: SourceTokenPreview[];
  outputSymbol: string;
  status: LegStatus;
  txHash: string | null;
  expectedOutputAmount?: string | null;
  expectedOutputFormatted?: string | null;
  expectedOutputUsd?: string | null;
  sourceChainTxHash?: string | null;
  destinationChainTxHash?: string | null;
  settledAmount?: string | null;
  settledAmountBasis?: AmountBasis | null;
  errorCode?: LegErrorCode | null;
  errorMessage?: string | null;
  trackingContext?: Record<string, unknown> | null;
}

/** spec: PerChainStatus. The spec leaves the status values open; ours are CHAIN_STATUSES. */
export interface PerChainStatus {
  chainId: number;
  provider: string;
  submitMethod: SubmitMethod;
  atomicRequired: boolean;
  status: ChainStatus;
  txHashes: string[];
  bundleId: string | null;
  legs: StatusLeg[];
}
