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
  /**
   * Additive: present only when the settled fill delivered another token than the target, in the same amount: the
   * zero address (the native currency) for a WETH target the provider paid as ETH (Across, to an EOA or an EIP-7702
   * wallet). `settledAmount` is in its base units (ETH and WETH both 18 decimals).
   */
  deliveredToken?: string;
  errorCode?: LegErrorCode | null;
  errorMessage?: string | null;
  trackingContext?: Record<string, unknown> | null;
  /** Additive: where the funds of a refunded leg (or one whose destination action failed) went. */
  refund?: LegRefund | null;
  /** Additive: present once the leg ran past the time its provider expected the fill by (kept after it ends). */
  delayed?: LegDelay | null;
  /**
   * Additive (issue 24), ISO 8601: the tracking limit passed while the leg's provider could still fill or refund its
   * deposit (its fill deadline plus the refund window), so the leg, and the attempt, stay open until the provider
   * acts or until this time, when the leg ends `settlement_timeout`. Absent on a leg never owed past the limit.
   */
  followedUntil?: string | null;
  /** Additive: the leg's fees as quoted (provider fees, service fee, partner markup); absent on older attempts. */
  fees?: LegFees | null;
  /**
   * Additive (issue 24 item 3): present only while the leg's fill is on chain but not yet final under the target
   * chain's confirmation policy; the leg stays `pending` (or `awaiting_source`) until it is.
   */
  awaitingConfirmations?: LegAwaitingConfirmations | null;
}

/** A fill seen on the target chain, not yet final enough to credit (docs/attempt-status.md "Confirmation policy"). */
export interface LegAwaitingConfirmations {
  /** The fill transaction on the target chain. */
  destinationChainTxHash: string;
  /** The block it was seen in, base 10. */
  blockNumber: string;
  /** What it delivers to the recipient, raw base units (the settledAmount once final). */
  settledAmount: string;
  /** ISO 8601: when the fill was first seen in that block. */
  seenAt: string;
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
  /**
   * Additive (issue 24, ADR 0009): present only on a chain of an `expired` attempt whose wallet did execute the
   * prepared calls there, in a transaction another open attempt of the same wallet could own too (identical calls),
   * which nobody reported: it was attributed to neither attempt, so this one expired.
   */
  expiryReason?: ChainExpiryReason;
}

/** Why an expired attempt's chain counted no transaction although the wallet executed its calls. */
export interface ChainExpiryReason {
  /** Open set (clients tolerate unknown values); today only `ambiguous_source_transaction`. */
  code: string;
  message: string;
  /** The wallet's transactions on this chain that executed the prepared calls and could belong to another attempt. */
  txHashes: string[];
}
