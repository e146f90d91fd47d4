import { type ProviderName } from '../enums/provider-name';

/** A validated source (spec: SourceInput). */
export interface SourceInput {
  chainId: number;
  /** As sent; the zero address denotes the chain's native asset. */
  address: string;
  /** Raw base units, base-10, 1 to 2^256-1. */
  amount: string;
  decimals: number;
  symbol?: string;
  usdValue?: string;
}

export interface TargetTokenInput {
  address: string;
  decimals: number;
  symbol?: string;
  priceUSD?: string;
}

/**
 * A validated target (spec: TargetInput) with defaults applied: `id` is `t<index>` when the partner sent
 * none, and the single-target form's allocationPercent is 100.
 */
export interface TargetInput {
  id: string;
  chainId: number;
  address: string;
  allocationPercent: number;
  targetToken: TargetTokenInput;
}

interface QuoteRequestFields {
  walletAddress: string;
  /** Defaults to walletAddress: the user signs the recipient later, so their own wallet is a safe default. */
  recipient: string;
  sources: SourceInput[];
  /** Default 50. */
  slippageBps: number;
  /** Default false. */
  allowPartial: boolean;
  maxWaitMs?: number;
  /** Absent means no integrator markup. */
  feeBps?: number;
  /** Absent means every provider enabled for the partner; `[]` means none. Duplicates removed. */
  allowedProviders?: ProviderName[];
  callbackUrl?: string;
  /** Leave out the sources flagged uneconomic; absent means false (flagged, still routed). */
  excludeUneconomicSources?: boolean;
  /** Gas cost as a share of a source's value at which it is uneconomic; absent means the default (5 000 bps). */
  uneconomicThresholdBps?: number;
}

/** A validated quote request (spec: QuoteRequest): exactly one of the single and multi-target forms. */
export type QuoteRequest = QuoteRequestFields &
  ({ target: TargetInput; targets?: undefined } | { targets: TargetInput[]; target?: undefined });
