import { type Address, type Hex } from 'viem';
import { type RoutableProvider } from './provider-adapter.port';

/** One transaction the wallet sends on the source chain. */
export interface ProviderCall {
  chainId: number;
  to: Address;
  data: Hex;
  value: bigint;
  gas: bigint | null;
  kind: 'approve' | 'deposit' | 'other';
  /** Set on approvals so prepare can skip one the on-chain allowance already covers, and order USDT resets. */
  approval?: { token: Address; spender: Address; amount: bigint };
}

export type FeeKind = 'provider' | 'app' | 'gas' | 'swap' | 'other';

export interface ProviderQuote {
  provider: RoutableProvider;
  sliceId: string;
  /** Target token base units, already net of fees. */
  expectedOutputRaw: bigint;
  minimumOutputRaw: bigint;
  inputUsd: number | null;
  outputUsd: number | null;
  feeUsd: number | null;
  feeBreakdown: { kind: FeeKind; usd: number }[];
  /** Value lost beyond fees (price impact, slippage), when the provider makes it derivable. */
  lossUsd: number | null;
  etaSeconds: number | null;
  /** Ordered, all on source.chainId, approvals first. */
  calls: ProviderCall[];
  /** relay requestId, across id, mayan quoteId. */
  providerRequestId: string | null;
  /**
   * Epoch ms after which the provider's quote or order no longer holds (across `quoteExpiryTimestamp`, mayan
   * `deadline64`); null when the provider names none. The intent session never outlives it.
   */
  validUntil: number | null;
  trackingContext: TrackingContext;
  /** How this provider pays the app fee (service fee + partner markup) it was asked to take; null when none. */
  appFee: AppFeeCollection | null;
}

/**
 * Where a provider puts the app fee: not every provider pays it to the fee recipient on chain (review D15). Relay
 * credits an off-chain balance that the recipient claims through Relay's API; Across pays it on the destination in
 * the output token; Mayan pays its referrer on the destination (Swift V1) or out of the locked source asset (V2).
 */
export interface AppFeeCollection {
  paidAs: 'offchain_balance' | 'destination_transfer' | 'source_transfer';
  /**
   * The rate the provider will charge, in bps of the input: the asked appFeeBps, or less where the provider caps it
   * (Mayan Swift: 50 bps on V1, 100 on V2). What the markup owed to a partner is reckoned from.
   */
  bps: number;
  /** The chain and token the fee is paid on; null for an off-chain balance. */
  chainId: number | null;
  token: Address | null;
  /** How an off-chain balance is claimed; null when the fee arrives by itself. */
  claim: string | null;
}

/**
 * What the quote itself says of a refund (Across Swap API `refundPolicy`, docs.across.to /introduction/refunds.mdx),
 * stored with the leg (optional: absent on quotes that said nothing and on attempts of earlier builds):
 * - `refundWindowMs`: how long after the deposit's fill deadline its refund is expected (`expectedRefundTimeMs`);
 * - `refundUnsupported`: the route has no refund step (`supported: false`, e.g. `irreversible_rail` for CCTP): the
 *   provider's reason; the funds always go through to the destination.
 */
export interface QuotedRefundTerms {
  refundWindowMs?: number;
  refundUnsupported?: string;
}

/** JSON-serialisable (no bigint): what status() needs later, stored with the attempt. */
export type TrackingContext =
  | { provider: 'relay'; requestId: string; originChainId: number; destinationChainId: number }
  | ({ provider: 'across'; originChainId: number; destinationChainId: number } & QuotedRefundTerms)
  /**
   * targetDecimals: the explorer reports the output in human units. swiftContract: the quote's `swiftMayanContract`,
   * the Swift contract the deposit goes into (optional: absent on legs stored by earlier builds).
   */
  | {
      provider: 'mayan';
      fromChain: string;
      toChain: string;
      targetDecimals: number;
      swiftContract?: Address;
    };

export type QuoteFailureReason =
  | 'provider_unavailable'
  | 'route_unavailable'
  | 'provider_timeout'
  | 'same_chain_unsupported'
  | 'amount_too_low';

export interface QuoteFailure {
  provider: RoutableProvider;
  reasonCode: QuoteFailureReason;
  reason: string;
  httpStatus: number | null;
  providerCode: string | null;
  /** The provider's `Retry-After` (a 429 or 503), in ms from the answer; absent when it sent none. */
  retryAfterMs?: number;
}

export type QuoteResult = { ok: true; quote: ProviderQuote } | { ok: false; failure: QuoteFailure };
