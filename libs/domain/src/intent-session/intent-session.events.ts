import { type QuoteRequest, type QuoteResponse, storedEventShapes } from '@svc/contract';

/**
 * Events of `intent-<intentSessionId>` (ARCHITECTURE.md "Streams"). Plain JSON: raw amounts are base-10 strings.
 */
export interface ExecutionCall {
  chainId: number;
  to: string;
  data: string;
  value: string;
  gas: string | null;
  kind: 'approve' | 'deposit' | 'other';
  approval: { token: string; spender: string; amount: string } | null;
}

/** What prepare needs to build chain actions for one quoted slice (the provider's own data, kept verbatim). */
export interface QuotedSliceExecution {
  sliceId: string;
  sourceIndex: number;
  provider: string;
  calls: ExecutionCall[];
  providerRequestId: string | null;
  trackingContext: Record<string, unknown>;
  expectedOutputRaw: string;
  minimumOutputRaw: string;
  /** Epoch ms after which the provider no longer honours this quote (null: it names no deadline). */
  validUntil: number | null;
  /** The provider's own estimate of the fill time for this quote, seconds (absent on sessions stored before it). */
  etaSeconds?: number | null;
  /** How the provider pays this slice's app fee (absent on sessions stored before it; null: no app fee). */
  appFee?: QuotedAppFee | null;
  /** The provider's fee total as quoted, USD (absent on sessions stored before it; null: it gave none). */
  feeUsd?: number | null;
  /** The provider's non-zero fee lines as quoted, USD by kind (absent on sessions stored before it). */
  feeBreakdown?: { kind: string; usd: number }[];
  /** The exact parameters the provider was asked with, so prepare can ask again for a stale quote. */
  quotedWith: QuotedSliceParams;
}

/** A provider quote request, JSON-safe (raw amount as a base-10 string). */
export interface QuotedSliceParams {
  sliceId: string;
  wallet: string;
  recipient: string;
  refundTo: string;
  source: { chainId: number; token: string; amount: string; decimals: number; symbol?: string };
  target: { chainId: number; token: string; decimals: number; symbol?: string };
  slippageBps: number;
  appFeeBps: number;
  appFeeRecipient: string | null;
}

export interface QuotedLegExecution {
  targetId: string;
  provider: string;
  /** Slices needing no provider (same token on the target chain): prepare adds a transfer when recipient ≠ wallet. */
  noopSlices: { sliceId: string; sourceIndex: number; chainId: number; token: string; rawAmount: string }[];
  slices: QuotedSliceExecution[];
}

/**
 * How a provider pays the app fee of one slice (review D15): to an off-chain balance at the provider that the fee
 * recipient claims (relay), on the destination in the output token (across, mayan Swift V1), or out of the locked
 * source asset (mayan Swift V2). chainId and token: where it is paid (null for an off-chain balance).
 */
export interface QuotedAppFee {
  paidAs: 'offchain_balance' | 'destination_transfer' | 'source_transfer';
  /** The rate the provider charges, bps of the input (absent on sessions stored before it was recorded). */
  bps?: number;
  chainId: number | null;
  token: string | null;
  /** How an off-chain balance is claimed. */
  claim: string | null;
}

/** The service's base fee and the partner's markup passed to providers, and what the markup owes the partner. */
export interface QuotedFees {
  serviceFeeBps: number;
  markupBps: number;
  recipient: string | null;
  /**
   * Per covered slice: the partner's share of the app fee the provider collects on its input, in source base units
   * (owed to the partner off-chain): markupBps of the input when the provider charges the whole asked rate
   * (serviceFeeBps + markupBps), proportionally less when it charges less (`collectedBps`), nothing when it charges
   * none. With how the provider pays the fee (`collectedAs`; both absent on sessions stored before they were).
   */
  markupOwed: {
    sliceId: string;
    chainId: number;
    token: string;
    rawAmount: string;
    usd: number | null;
    provider?: string;
    collectedAs?: QuotedAppFee | null;
    /** The rate the provider charges on this slice (≤ serviceFeeBps + markupBps). */
    collectedBps?: number;
  }[];
}

export interface IntentQuotedData {
  intentSessionId: string;
  partnerId: string;
  idempotencyKey: string | null;
  quotedAt: number;
  expiresAt: number;
  request: QuoteRequest;
  /** The response as first sent, without apiVersion; replays re-send it with the current quoteStatus. */
  response: Omit<QuoteResponse, 'apiVersion'>;
  execution: QuotedLegExecution[];
  fees: QuotedFees;
}

export type IntentSessionEvent =
  | { type: 'IntentQuoted'; data: IntentQuotedData }
  | {
      type: 'IntentPrepared';
      data: { attemptId: string; idempotencyKey: string | null; preparedAt: number };
    };

/** What a stored intent session event must hold for evolveIntentSession to fold it: a known type, plain data. */
export const intentSessionEventShapes = storedEventShapes<IntentSessionEvent>({
  IntentQuoted: true,
  IntentPrepared: true,
});
