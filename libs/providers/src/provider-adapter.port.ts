import { type Address, type Hex } from 'viem';
import { type StatusResult } from './leg-progress';
import { type QuoteResult, type TrackingContext } from './provider-quote';

/** The providers that produce external routes today (a subset of the contract's ProviderName). */
export type RoutableProvider = 'relay' | 'across' | 'mayan';

/** One source balance to move into the target token: the unit a provider quotes. */
export interface QuoteSlice {
  /** Our id, echoed back on the quote. */
  sliceId: string;
  /** Depositor: the account that signs on the source chain. */
  wallet: Address;
  /** Receives the output on the destination chain. */
  recipient: Address;
  /** Always explicit: Relay disables automatic refunds when it is missing. */
  refundTo: Address;
  /** Zero address = the chain's native asset. */
  source: { chainId: number; token: Address; amount: bigint; decimals: number; symbol?: string };
  target: { chainId: number; token: Address; decimals: number; symbol?: string };
  /** 1..10000 */
  slippageBps: number;
  /** Combined base + integrator markup; 0 = none. */
  appFeeBps: number;
  /** Required by across and relay (and mayan without MAYAN_REFERRER_ADDRESS) when appFeeBps > 0. */
  appFeeRecipient: Address | null;
}

/** A log of a source transaction's receipt, as the chain returned it. */
export interface ReceiptLog {
  address: Address;
  topics: readonly Hex[];
  data: Hex;
}

/**
 * How the settlement tracker follows this provider's legs. The tracking workflow (libs/domain) reads only these
 * traits, so the settlement library names no provider.
 */
export interface ProviderTrackingTraits {
  /** The leg can be polled before its source transaction is seen (relay finds a request by its id). */
  pollsBeforeSourceTx: boolean;
  /** The provider's published polling guidance: never poll one leg more often than this. */
  minPollIntervalMs: number;
  /** A reported failure is final only after it stood this long (relay: failure → refund); 0 = final at once. */
  failureGraceMs: number;
  /** How long a fill usually takes once the deposit is confirmed (the provider's figure or ours, with its source). */
  expectedFillSeconds?: number;
}

/** Which deposit of a source transaction a leg is: a transaction can hold several (a wallet_sendCalls batch). */
export interface DepositSelector {
  /** 0-based position of the leg's deposit among this provider's deposits in the transaction, in call order. */
  index: number;
  /** The provider's own id of that deposit read from the receipt (depositRefs), when it has one. */
  ref: string | null;
}

export interface ProviderAdapter {
  readonly name: RoutableProvider;
  readonly tracking: ProviderTrackingTraits;
  /** The provider's public explorer page for a leg, when it has one. */
  explorerUrl(context: TrackingContext, sourceTxHash: Hex | null): string | null;
  /** This provider's deposits in a source transaction's receipt logs, in log order; [] when it names none. */
  depositRefs(logs: readonly ReceiptLog[]): string[];
  /** Never throws for provider behaviour: every HTTP or response problem is a typed failure. */
  quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult>;
  /**
   * sourceTxHash: the deposit transaction on the source chain (across and mayan track by it; relay by requestId).
   * deposit: which of the transaction's deposits is this leg's (null: the first, or unknown).
   */
  status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null; deposit?: DepositSelector | null },
  ): Promise<StatusResult>;
}
