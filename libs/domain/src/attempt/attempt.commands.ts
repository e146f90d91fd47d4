import { type AmountBasis, type LegRefund } from '@svc/contract';
import { type TxFinality } from '../tracking/tx-finality';
import { type LegFinality } from './confirm-leg';
import { type AmbiguousSource } from './attempt.events';

type Command<Type extends string, Data> = { type: Type; data: Data };

/** One chain of a submitted report, validated (hashes lower-cased, de-duplicated). */
export interface EvidenceChainResult {
  chainId: number;
  bundleId: string | null;
  txHashes: string[];
}

/** POST /attempts/{id}/submitted. The caller has verified `signature` against the prepared authorization. */
export type ReportEvidence = Command<
  'ReportEvidence',
  {
    reportId: string;
    chainResults: EvidenceChainResult[];
    submittedAt: number | null;
    signature: { value: string; signer: string } | null;
    now: number;
  }
>;

/**
 * The settlement tracker classified a source transaction it read from the chain. `minedAt`: the block's timestamp
 * (epoch ms). `claimedBy`: the attempt that holds the transaction's claim (one claim per chain and hash, kept in the
 * event store), null when the tracker did not claim it.
 */
export type ObserveSourceTransaction = Command<
  'ObserveSourceTransaction',
  { chainId: number; txHash: string; now: number } & (
    | {
        outcome: 'confirmed';
        callIds: string[];
        blockNumber: string;
        minedAt: number;
        claimedBy: string | null;
      }
    | { outcome: 'reverted'; minedAt: number }
    | { outcome: 'mismatched'; reason: string }
    /** The node never knew the hash after every retry: recorded once, then never read again. */
    | { outcome: 'unknown'; reason: string }
  )
>;

/** What the tracker learned about one slice from its provider (or, for a no-op slice, from the chain). */
export type LegProgress =
  /** fillDeadlineAt: the deposit's own fill deadline (epoch ms), when the tracker read it. */
  | { state: 'pending'; providerStatus: string; fillDeadlineAt?: number | null }
  /** What reached the recipient in the fill: `exact` read from the chain, `estimated` only where it cannot be read. */
  | {
      state: 'filled';
      destinationTxHash: string | null;
      settledAmount: string;
      amountBasis: AmountBasis;
      /** The token that arrived when it is not the target: the native currency for an unwrapped WETH target. */
      deliveredToken?: string;
      /** The deposit key the fill was attributed and claimed under (`attributeFill`), when it was claimed. */
      depositKey?: string;
    }
  /** The named fill does not deliver this leg (reverted, nothing or the wrong token, or another leg's fill). */
  | { state: 'fill_rejected'; destinationTxHash: string | null; reason: string }
  | { state: 'refunded'; refundTxHash: string | null; reason: string; refund?: LegRefund | null }
  /** The fill arrived but its destination action failed: the recipient (or refund address) got something else. */
  | {
      state: 'destination_action_failed';
      destinationTxHash: string | null;
      reason: string;
      refund: LegRefund;
    }
  | { state: 'failed'; reason: string };

/**
 * `finality` (issue 24 item 3): for a `filled` progress, the fill and source transaction read under the chains'
 * confirmation policies; absent, a fill settles as it is read (no hash to check, or a chain the service cannot read).
 */
export type ObserveLeg = Command<
  'ObserveLeg',
  { sliceId: string; progress: LegProgress; now: number; finality?: LegFinality }
>;

/** The tracker read again the fill a leg awaits confirmations for, and its source transaction. */
export type ConfirmLeg = Command<'ConfirmLeg', { sliceId: string; finality: LegFinality; now: number }>;

/** Within the re-check window after settled, the tracker read a settled leg's fill again (ADR 0008). */
export type RecheckSettledLeg = Command<
  'RecheckSettledLeg',
  { sliceId: string; fill: TxFinality; now: number }
>;

/** The tracker found an open leg past its provider's expected fill time. */
export type MarkLegDelayed = Command<
  'MarkLegDelayed',
  { sliceId: string; since: number; expectedBy: number; explorerUrl: string | null; now: number }
>;

/**
 * The deadlines that end every non-terminal state. `depositFound`: the tracker found the wallet's deposit
 * although no evidence was reported, so the attempt is tracked instead of expired. `legDeadlines`: until when each
 * open leg is followed (`legDeadlines` of the tracking workflow: its provider's fill deadline plus refund window);
 * a leg it does not name ends at preparedAt + trackingLimitMs.
 */
export type CheckDeadlines = Command<
  'CheckDeadlines',
  {
    now: number;
    trackingLimitMs: number;
    depositFound: boolean;
    legDeadlines?: Readonly<Record<string, number>>;
    /** What the deposit search found but could not attribute (ADR 0009): an expiry says so. */
    ambiguousSources?: readonly AmbiguousSource[];
  }
>;

export type AttemptCommand =
  | ReportEvidence
  | ObserveSourceTransaction
  | ObserveLeg
  | MarkLegDelayed
  | CheckDeadlines
  | ConfirmLeg
  | RecheckSettledLeg;
