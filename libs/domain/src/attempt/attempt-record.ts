import {
  type AmountBasis,
  type AttemptStatus,
  type LegErrorCode,
  type LegRefund,
  type LegStatus,
} from '@svc/contract';
import { type AttemptPreparedData, type AuthorizationSignedData } from './attempt.events';

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
}

export type AttemptState = { status: 'none' } | AttemptRecord;
