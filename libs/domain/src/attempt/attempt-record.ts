import {
  type AmountBasis,
  type AttemptStatus,
  type LegErrorCode,
  type LegRefund,
  type LegStatus,
} from '@svc/contract';
import {
  type AmbiguousSource,
  type AttemptPreparedData,
  type AuthorizationSignedData,
} from './attempt.events';

/** What the wallet reported on one chain, over every report: hashes in order of first report. */
export interface ChainEvidence {
  chainId: number;
  txHashes: string[];
  bundleIds: string[];
}

export type SourceTxOutcome = 'confirmed' | 'reverted' | 'mismatched' | 'unknown';

/** A source transaction the tracker classified; a tx is classified once. */
export interface SourceTxRecord {
  chainId: number;
  txHash: string;
  outcome: SourceTxOutcome;
  /** The prepared calls it executed (confirmed only). */
  callIds: string[];
  at: number;
  /** Confirmed: the block it was mined in, base 10 (a reorganisation that moves it is told by it). */
  blockNumber?: string;
}

/** Where one slice (a StatusLeg) stands. */
export interface SliceProgress {
  sliceId: string;
  status: LegStatus;
  providerStatus: string | null;
  destinationTxHash: string | null;
  settledAmount: string | null;
  amountBasis: AmountBasis | null;
  refundTxHash: string | null;
  errorCode: LegErrorCode | null;
  errorMessage: string | null;
  updatedAt: number | null;
  /** Where the funds went when the leg did not deliver the target (refunded, destination_action_failed). */
  refund: LegRefund | null;
  /** Fills the provider named that did not deliver this leg (each recorded once). */
  rejectedFills: string[];
  /** The leg ran past its provider's expected fill time. */
  delayed: { since: number; expectedBy: number; explorerUrl: string | null } | null;
  /** The fill seen on chain, awaiting confirmations before the leg settles (issue 24 item 3); absent: none. */
  awaitingConfirmation?: {
    destinationTxHash: string;
    settledAmount: string;
    amountBasis: AmountBasis;
    blockNumber: string;
    blockHash: string;
    since: number;
    deliveredToken?: string;
    depositKey?: string;
  } | null;
  /** Where the settled fill was final (the re-check after settled reads it there). */
  settledBlock?: { blockNumber: string; blockHash: string } | null;
  /** The settled fill vanished afterwards (ADR 0008): never silent. */
  vanished?: { destinationTxHash: string; reason: string; at: number } | null;
  /** The deposit's own fill deadline (epoch ms), when the tracker read it (across `fillDeadline`). */
  fillDeadlineAt?: number | null;
  /**
   * The tracking limit passed while the leg's provider could still fill or refund it: followed until this (epoch ms).
   */
  followedUntil?: number | null;
  /** The token the settled fill delivered when it is not the target (the native currency for an unwrapped WETH). */
  deliveredToken?: string;
  /** The deposit key the settled fill was claimed under (LegSettled's, issue 24 item 1); absent on earlier builds'. */
  depositKey?: string;
}

export interface AttemptFailure {
  errorCode: LegErrorCode;
  errorMessage: string;
}

export interface AttemptRecord {
  status: AttemptStatus;
  prepared: AttemptPreparedData;
  reportIds: string[];
  /** Of the first accepted evidence: the partner's submittedAt, else when it was accepted. */
  submittedAt: number | null;
  evidence: ChainEvidence[];
  signature: AuthorizationSignedData | null;
  sourceTxs: SourceTxRecord[];
  /** One per slice, in flattened (leg, then slice) order. */
  slices: SliceProgress[];
  /** The first slice failure, in the order it happened: the attempt fails with it. */
  firstSliceFailure: AttemptFailure | null;
  walletSubmittedAt: number | null;
  providerPendingAt: number | null;
  /** When the attempt became settled, failed or expired. */
  endedAt: number | null;
  failure: AttemptFailure | null;
  /**
   * Of an expired attempt: the wallet's transactions that executed its calls but that another open attempt of the
   * wallet could own too (ADR 0009), so nothing settled on them. Absent otherwise, and on records of earlier builds.
   */
  expiredAmbiguous?: AmbiguousSource[];
}

export type AttemptState = { status: 'none' } | AttemptRecord;
