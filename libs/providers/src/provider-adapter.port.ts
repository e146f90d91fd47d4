import { type Address, type Hex } from 'viem';
import { type CctpBurn } from './cctp/cctp-burn';
import { type FillRecord, type FillRecordQuery } from './fill-record';
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
  /** How long after its deposit the provider may still fill, when the deposit's own deadline is not read. */
  fillWindowMs?: number;
  /** After the fill deadline, how long its refund may take to arrive; the leg is followed until then. */
  refundWindowMs?: number;
}

/** Which deposit of a source transaction a leg is: a transaction can hold several (a wallet_sendCalls batch). */
export interface DepositSelector {
  /** 0-based position of the leg's deposit among this provider's deposits in the transaction, in call order. */
  index: number;
  /** The provider's own id of that deposit read from the receipt (depositRefs), when it has one. */
  ref: string | null;
  /** What that deposit says of its own end (depositTerms), when the adapter reads it. */
  terms?: DepositTerms | null;
  /**
   * The CCTP message the deposit's burn sent (depositCctpBurns), when the deposit is a CCTP burn (an Across leg routed
   * over CCTP): its fill record is the destination's MessageReceived of that message.
   */
  cctpBurn?: CctpBurn | null;
}

/** What one deposit event says about how it ends when it is not filled (issue 24 item 2). */
export interface DepositTerms {
  /** Epoch ms after which the provider can no longer fill it (across `fillDeadline`); null when not said. */
  fillDeadlineAt: number | null;
  /** The token a refund of it pays (across: the deposit's input token, WETH for native input); null when not said. */
  refundToken: Address | null;
}

/** Where a leg's deposit was made: its source chain and the leg's tracking context (the quote's contracts). */
export interface DepositScope {
  chainId: number;
  context: TrackingContext;
}

export interface ProviderAdapter {
  readonly name: RoutableProvider;
  readonly tracking: ProviderTrackingTraits;
  /** The provider's public explorer page for a leg, when it has one. */
  explorerUrl(context: TrackingContext, sourceTxHash: Hex | null): string | null;
  /**
   * This provider's deposits in a source transaction's receipt logs, in log order; [] when it names none. With a
   * `scope`, only the events the provider's own contracts emitted there count (the configured adapter, VouchedAdapter,
   * filters by emitter: providers review N12); an adapter itself reads the logs it is given.
   */
  depositRefs(logs: readonly ReceiptLog[], scope?: DepositScope): string[];
  /** What each deposit says of its own end, in the order of depositRefs; absent: the adapter reads none. */
  depositTerms?(logs: readonly ReceiptLog[], scope?: DepositScope): DepositTerms[];
  /**
   * Contracts of the provider that a leg's quote named beyond the calldata allowlist (Mayan: the Swift contract the
   * forwarder deposits into, which emits OrderCreated and, on the destination, OrderFulfilled); null when the
   * context names none although it should (a leg stored by an earlier build: its events are not filtered).
   */
  quotedContracts?(context: TrackingContext): readonly Address[] | null;
  /**
   * The CCTP burn message of each deposit, in the order of depositRefs (null: not a CCTP burn, or unread). With a
   * `scope`, as depositRefs: the provider's own contracts' events, and CCTP's `MessageSent` (checked against the
   * burn it precedes, so a look-alike cannot make one).
   */
  depositCctpBurns?(logs: readonly ReceiptLog[], scope?: DepositScope): (CctpBurn | null)[];
  /**
   * This leg's deposit's own fill record in a fill transaction (issue 24 item 1): a fill transaction can fill several
   * deposits (Across's relayer `multicall`, the CCTP finalizer's batch), and each leg takes only its own. Pure: reads
   * only the logs and transaction given. Absent: the adapter knows no record layout (every fill reads `none`).
   */
  fillRecord?(context: TrackingContext, query: FillRecordQuery): FillRecord;
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
