import { type AmountBasis } from '../enums/amount-basis';
import { type ChainStatus } from './chain-status';
import { type LegErrorCode, type LegStatus } from './leg-status';
import { type SubmitMethod } from '../enums/submit-method';
import { type SourceTokenPreview } from '../prepare/source-token-preview.types';
import { type LegFees } from './leg-fees.types';

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
  /** Additive: where the funds of a refunded leg (or one whose destination action failed) went. */
  refund?: LegRefund | null;
  /** Additive: present once the leg ran past the time its provider expected the fill by (kept after it ends). */
  delayed?: LegDelay | null;
  /** Additive: the leg's fees as quoted (provider fees, service fee, partner markup); absent on older attempts. */
  fees?: LegFees | null;
}

/** An open leg past its provider's expected fill time: slow, or stuck; the explorer shows which. */
export interface LegDelay {
  /** ISO 8601: the leg has been under way since (its deposit confirmed). */
  since: string;
  /** ISO 8601: when the provider's own figure expected the fill. */
  expectedBy: string;
  /** The provider's public explorer page for the leg, when it has one. */
  explorerUrl: string | null;
}

/**
 * Where a leg's funds went when they did not reach the recipient as the target token: the chain, the token (the zero
 * address for the native currency), the raw amount and the transaction that paid them, and the account paid. A
 * field the provider and the chain could not tell is null.
 */
export interface LegRefund {
  chainId: number | null;
  token: string | null;
  /** Raw base units of `token`, base 10. */
  amount: string | null;
  /** `exact` when read from the chain, `estimated` when reported by the provider. */
  amountBasis: AmountBasis | null;
  txHash: string | null;
  to: string | null;
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
