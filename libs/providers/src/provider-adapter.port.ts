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

export interface ProviderAdapter {
  readonly name: RoutableProvider;
  /** Never throws for provider behaviour: every HTTP or response problem is a typed failure. */
  quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult>;
  /** sourceTxHash: the deposit transaction on the source chain (across and mayan track by it; relay by requestId). */
  status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null },
  ): Promise<StatusResult>;
}
