import { type AmountBasis, type LegRefund } from '@svc/contract';

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
  | { state: 'pending'; providerStatus: string }
  /** What reached the recipient in the fill: `exact` read from the chain, `estimated` only where it cannot be read. */
  | { state: 'filled'; destinationTxHash: string | null; settledAmount: string; amountBasis: AmountBasis }
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

export type ObserveLeg = Command<'ObserveLeg', { sliceId: string; progress: LegProgress; now: number }>;

/** The tracker found an open leg past its provider's expected fill time. */
export type MarkLegDelayed = Command<
  'MarkLegDelayed',
  { sliceId: string; since: number; expectedBy: number; explorerUrl: string | null; now: number }
>;

/**
 * The deadlines that end every non-terminal state. `depositFound`: the tracker found the wallet's deposit
 * although no evidence was reported, so the attempt is tracked instead of expired.
 */
export type CheckDeadlines = Command<
  'CheckDeadlines',
  { now: number; trackingLimitMs: number; depositFound: boolean }
>;

export type AttemptCommand =
  ReportEvidence | ObserveSourceTransaction | ObserveLeg | MarkLegDelayed | CheckDeadlines;
