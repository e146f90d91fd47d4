import { type AmountBasis } from '@svc/contract';

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

/** The settlement tracker classified a source transaction it read from the chain. */
export type ObserveSourceTransaction = Command<
  'ObserveSourceTransaction',
  { chainId: number; txHash: string; now: number } & (
    | { outcome: 'confirmed'; callIds: string[]; blockNumber: string }
    | { outcome: 'reverted' }
    | { outcome: 'mismatched'; reason: string }
  )
>;

/** What the tracker learned about one slice from its provider (or, for a no-op slice, from the chain). */
export type LegProgress =
  | { state: 'pending'; providerStatus: string }
  | { state: 'filled'; destinationTxHash: string | null; settledAmount: string; amountBasis: AmountBasis }
  | { state: 'refunded'; refundTxHash: string | null; reason: string }
  | { state: 'failed'; reason: string };

export type ObserveLeg = Command<'ObserveLeg', { sliceId: string; progress: LegProgress; now: number }>;

/**
 * The deadlines that end every non-terminal state. `depositFound`: the tracker found the wallet's deposit
 * although no evidence was reported, so the attempt is tracked instead of expired.
 */
export type CheckDeadlines = Command<
  'CheckDeadlines',
  { now: number; trackingLimitMs: number; depositFound: boolean }
>;

export type AttemptCommand = ReportEvidence | ObserveSourceTransaction | ObserveLeg | CheckDeadlines;
