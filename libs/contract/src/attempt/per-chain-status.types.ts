import { type AmountBasis } from '../enums/amount-basis';
import { type SubmitMethod } from '../enums/submit-method';
import { type SourceTokenPreview } from '../prepare/source-token-preview.types';

/** spec: StatusLeg. Leg status values are not enumerated by the spec, so `status` is a string. */
export interface StatusLeg {
  legIndex: number;
  outputTargetId: string;
  provider: string;
  sourceChainId: number;
  sourceTokens: SourceTokenPreview[];
  outputSymbol: string;
  status: string;
  txHash: string | null;
  expectedOutputAmount?: string | null;
  expectedOutputFormatted?: string | null;
  expectedOutputUsd?: string | null;
  sourceChainTxHash?: string | null;
  destinationChainTxHash?: string | null;
  settledAmount?: string | null;
  settledAmountBasis?: AmountBasis | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  trackingContext?: Record<string, unknown> | null;
}

/** spec: PerChainStatus. Chain status values are not enumerated by the spec, so `status` is a string. */
export interface PerChainStatus {
  chainId: number;
  provider: string;
  submitMethod: SubmitMethod;
  atomicRequired: boolean;
  status: string;
  txHashes: string[];
  bundleId: string | null;
  legs: StatusLeg[];
}
