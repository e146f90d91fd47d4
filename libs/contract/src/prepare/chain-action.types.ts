import { type SubmitMethod } from '../enums/submit-method';
import { type SourceTokenPreview } from './source-token-preview.types';

/** spec: ChainCall. `data` is opaque calldata: submitted exactly as returned, never rebuilt. */
export interface ChainCall {
  to: string;
  data: string;
  value: string;
  /** `chain:<chainId>:call:<callIndex>`. */
  callId: string;
  callIndex: number;
  quoteIndex: number;
  gas?: string | null;
}

/** spec: ChainTransaction: a ChainCall sent on its own with sendTransaction. */
export interface ChainTransaction extends ChainCall {
  chainId: number;
}

/** spec: QuotePlan: which calls of a chain action belong to one provider quote. */
export interface QuotePlan {
  provider: string;
  callCount: number;
  callStart: number;
  quoteIndex: number;
  outputTargetId: string;
  transactionCount: number;
  primaryCallIndex?: number | null;
  sourceTokenCount?: number;
}

/** spec: PerLegPreview. */
export interface PerLegPreview {
  legIndex: number;
  provider: string;
  outputSymbol: string;
  sourceTokens: SourceTokenPreview[];
  sourceChainId: number;
  outputTargetId: string;
  expectedOutputAmount: string | null;
  expectedOutputFormatted: string | null;
  expectedOutputUsd?: string | null;
}

/**
 * spec: ChainAction: what the wallet executes on one source chain. `calls` is set for wallet_sendCalls,
 * `transactions` (ordered) for sendTransaction; the other is null.
 */
export interface ChainAction {
  chainId: number;
  provider: string;
  submitMethod: SubmitMethod;
  atomicRequired: boolean;
  calls: ChainCall[] | null;
  transactions: ChainTransaction[] | null;
  transactionCount: number;
  quoteCount: number;
  quotePlans: QuotePlan[];
  perLegPreview: PerLegPreview[];
}
