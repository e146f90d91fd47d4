import {
  isArrayOf,
  isPlainData,
  storedEventShapes,
  type AmountBasis,
  type ChainAction,
  type LegErrorCode,
  type LegFees,
  type LegRefund,
  type WalletAuthorizationTypedData,
} from '@svc/contract';

/** One slice the attempt executes, with what the tracker needs to follow it to settlement. */
export interface AttemptSlice {
  sliceId: string;
  sourceIndex: number;
  sourceChainId: number;
  /** No-op slices deliver by a plain transfer (or are already in place); they have no provider. */
  noop: boolean;
  provider: string | null;
  providerRequestId: string | null;
  trackingContext: Record<string, unknown> | null;
  expectedOutputRaw: string;
  minimumOutputRaw: string;
  /** The provider's fill-time estimate when quoted, seconds: what `delayed` is measured against. */
  etaSeconds?: number | null;
  /** The slice's fees as quoted (the snapshot's StatusLeg.fees); absent on attempts prepared before it. */
  fees?: LegFees;
}

export interface AttemptLeg {
  legIndex: number;
  targetId: string;
  provider: string;
  target: { chainId: number; address: string; symbol: string; decimals: number };
  slices: AttemptSlice[];
}

/** Everything the snapshot, the settlement tracker and an audit need, recorded when the attempt is created. */
export interface AttemptPreparedData {
  attemptId: string;
  intentSessionId: string;
  partnerId: string;
  idempotencyKey: string | null;
  wallet: string;
  recipient: string;
  preparedAt: number;
  /** Signable window (30 s): epoch ms. */
  expiresAt: number;
  /** Initial evidence must arrive before this: epoch ms. */
  evidenceDeadlineAt: number;
  chainActions: ChainAction[];
  walletAuthorization: WalletAuthorizationTypedData;
  legs: AttemptLeg[];
  walletContext: {
    connectorName?: string;
    connectorId?: string;
    walletCapabilities?: Record<string, unknown>;
  } | null;
}

/** What one report added on one chain: only hashes and bundle ids not recorded before. */
export interface ReportedChainResult {
  chainId: number;
  bundleId: string | null;
  txHashes: string[];
}

export interface EvidenceReportedData {
  /** Names the report (derived from its Idempotency-Key): the same report again is a replay. */
  reportId: string;
  reportedAt: number;
  /** As the partner reported it, epoch ms. */
  submittedAt: number | null;
  chainResults: ReportedChainResult[];
}

/** The caller verified the signature over the prepared wallet authorization before deciding. */
export interface AuthorizationSignedData {
  signature: string;
  signer: string;
  signedAt: number;
}

/** The wallet sent this tx and it executed prepared calls. */
export interface SourceTransactionConfirmedData {
  chainId: number;
  txHash: string;
  callIds: string[];
  blockNumber: string;
  at: number;
}

export interface SourceTransactionRevertedData {
  chainId: number;
  txHash: string;
  at: number;
}

/** The tx is not the prepared calls (other sender, other target or data): it never confirms anything. */
export interface SourceTransactionMismatchedData {
  chainId: number;
  txHash: string;
  reason: string;
  at: number;
}

/** The node never knew the hash after every retry: recorded once, never read again. */
export interface SourceTransactionUnknownData {
  chainId: number;
  txHash: string;
  reason: string;
  at: number;
}

export interface LegPendingData {
  sliceId: string;
  providerStatus: string;
  at: number;
  /** Optional (issue 24): the deposit's own fill deadline, epoch ms, when the tracker read it (across `fillDeadline`). */
  fillDeadlineAt?: number | null;
}

/**
 * The tracking limit passed, but the leg's provider can still fill or refund its deposit (its fill deadline plus the
 * refund window): the leg stays open, and so does the attempt, until the provider acts or `until` passes. Recorded
 * again only when `until` changes.
 */
export interface LegOwedData {
  sliceId: string;
  /** Epoch ms: the leg ends `settlement_timeout` if nothing comes by then. */
  until: number;
  at: number;
}

export interface LegSettledData {
  sliceId: string;
  destinationTxHash: string | null;
  /** Raw base units of the target token, base 10. */
  settledAmount: string;
  amountBasis: AmountBasis;
  at: number;
  /** Optional (issue 24 item 3): the block the fill was final in, when the tracker checked its confirmations. */
  blockNumber?: string;
  blockHash?: string;
  /**
   * Optional (issue 24, providers review N7): the token that reached the recipient when it is not the target, the
   * native currency (zero address) for a WETH target Across paid as ETH. Absent: the target itself.
   */
  deliveredToken?: string;
  /**
   * Optional (issue 24 item 1): the deposit key the fill was attributed and claimed under (`attributeFill`'s
   * `depositKey`; the claim stream `fillClaimStreamId(chain, destinationTxHash, depositKey)`): which of the fill
   * transaction's deliveries is this leg's. Absent: a no-op leg's own transfer, or a LegSettled of an earlier build.
   */
  depositKey?: string;
}

/**
 * The chain shows a fill delivering the leg, but not yet final under the chain's confirmation policy (or not on a
 * quorum of its nodes): the leg stays open, awaiting confirmations. Recorded once per fill and block.
 */
export interface LegFillSeenData {
  sliceId: string;
  destinationTxHash: string;
  settledAmount: string;
  amountBasis: AmountBasis;
  blockNumber: string;
  blockHash: string;
  at: number;
  /** Optional (issue 24 N7): as LegSettledData's, the token delivered when it is not the target. */
  deliveredToken?: string;
  /** Optional (issue 24 item 1): as LegSettledData's, the deposit key the fill was claimed under. */
  depositKey?: string;
}

/** The fill a leg awaited confirmations for left the block it was seen in (a reorganisation): back to tracking. */
export interface LegFillReorgedData {
  sliceId: string;
  destinationTxHash: string;
  reason: string;
  at: number;
}

/** A confirmed source transaction is no longer where it was mined (a reorganisation): it is read again. */
export interface SourceTransactionReorgedData {
  chainId: number;
  txHash: string;
  reason: string;
  at: number;
}

/**
 * A settled leg's fill is gone from its block, found by the re-check after `settled` (ADR 0008). The attempt stays
 * settled; this is the audit entry, and the tracker raises the alarm (metric and error log).
 */
export interface SettledFillVanishedData {
  sliceId: string;
  destinationTxHash: string;
  reason: string;
  at: number;
}

export interface LegFailedData {
  sliceId: string;
  errorCode: LegErrorCode;
  errorMessage: string;
  refundTxHash: string | null;
  at: number;
  /** below_minimum: the fill that reached the recipient, and what it delivered (raw). */
  destinationTxHash?: string | null;
  settledAmount?: string | null;
  amountBasis?: AmountBasis | null;
  /** refunded, destination_action_failed: where the funds went, as far as the provider and the chain tell. */
  refund?: LegRefund | null;
}

/**
 * A leg still open past the time its provider expects a fill to take: slow or stuck, the partner can look. Recorded
 * once per leg. `since`: when the leg was under way (its deposit confirmed); `expectedBy`: since + the expected time.
 */
export interface LegDelayedData {
  sliceId: string;
  since: number;
  expectedBy: number;
  /** The provider's explorer page for the leg, when the adapter can name one. */
  explorerUrl: string | null;
  at: number;
}

/**
 * A fill the provider named that does not deliver this leg (reverted, nothing or the wrong token to the recipient,
 * or already the fill of another leg): recorded once per fill, the leg stays open.
 */
export interface LegFillRejectedData {
  sliceId: string;
  destinationTxHash: string | null;
  reason: string;
  at: number;
}

export interface AttemptFailedData {
  errorCode: LegErrorCode;
  errorMessage: string;
  at: number;
}

type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * Events of `attempt-<attemptId>`. The lifecycle events (`Attempt…` after AttemptPrepared) map one to one onto
 * webhooks, except AttemptExpired; the others are facts that never change the status on their own.
 */
export type AttemptEvent =
  | Event<'AttemptPrepared', AttemptPreparedData>
  | Event<'EvidenceReported', EvidenceReportedData>
  | Event<'AuthorizationSigned', AuthorizationSignedData>
  | Event<'SourceTransactionConfirmed', SourceTransactionConfirmedData>
  | Event<'SourceTransactionReverted', SourceTransactionRevertedData>
  | Event<'SourceTransactionMismatched', SourceTransactionMismatchedData>
  | Event<'SourceTransactionUnknown', SourceTransactionUnknownData>
  | Event<'LegPending', LegPendingData>
  | Event<'LegFillRejected', LegFillRejectedData>
  | Event<'LegDelayed', LegDelayedData>
  | Event<'LegOwed', LegOwedData>
  | Event<'LegSettled', LegSettledData>
  | Event<'LegFillSeen', LegFillSeenData>
  | Event<'LegFillReorged', LegFillReorgedData>
  | Event<'SourceTransactionReorged', SourceTransactionReorgedData>
  | Event<'SettledFillVanished', SettledFillVanishedData>
  | Event<'LegFailed', LegFailedData>
  | Event<'AttemptWalletSubmitted', { at: number }>
  | Event<'AttemptProviderPending', { at: number }>
  | Event<'AttemptSettled', { at: number }>
  | Event<'AttemptFailed', AttemptFailedData>
  | Event<
      'AttemptExpired',
      {
        at: number;
        /**
         * Optional (issue 24, ADR 0009): transactions of the wallet that executed this attempt's prepared calls but
         * that another open attempt of the wallet could own too, so the deposit search claimed them for nobody and
         * nobody reported them. Absent on events of earlier builds and when the search found none.
         */
        ambiguousSources?: AmbiguousSource[];
      }
    >;

export type AttemptEventType = AttemptEvent['type'];

/**
 * What a stored attempt event must hold for evolveAttempt to fold it (aggregateStream checks it before evolve): a
 * type of AttemptEvent, data a plain object, and the arrays the fold iterates. Nothing more: a missing scalar field
 * folds as a missing value and is the reader's to handle, a missing array would throw inside the fold.
 */
export const attemptEventShapes = storedEventShapes<AttemptEvent>({
  AttemptPrepared: (data) =>
    isArrayOf(data['legs'], (leg) => isPlainData(leg) && isArrayOf(leg['slices'], isPlainData)),
  EvidenceReported: (data) =>
    isArrayOf(data['chainResults'], (result) => isPlainData(result) && isArrayOf(result['txHashes'])),
  AuthorizationSigned: true,
  SourceTransactionConfirmed: true,
  SourceTransactionReverted: true,
  SourceTransactionMismatched: true,
  SourceTransactionUnknown: true,
  LegPending: true,
  LegFillRejected: true,
  LegDelayed: true,
  LegOwed: true,
  LegSettled: true,
  LegFillSeen: true,
  LegFillReorged: true,
  SourceTransactionReorged: true,
  SettledFillVanished: true,
  LegFailed: true,
  AttemptWalletSubmitted: true,
  AttemptProviderPending: true,
  AttemptSettled: true,
  AttemptFailed: true,
  AttemptExpired: true,
});

/** A source transaction the deposit search could not attribute: another open attempt of the wallet could own it. */
export interface AmbiguousSource {
  chainId: number;
  txHash: string;
}
