import { type AmountBasis, isTerminalAttemptStatus, type LegStatus } from '@svc/contract';
import {
  type AttemptRecord,
  flattenSlices,
  type IntentQuotedData,
  type QuotedFees,
  type QuotedSliceExecution,
} from '@svc/domain';
import { splitProviderFee } from './split-provider-fee';

/** Whether a leg owes its fees: it settled; it failed or never delivered (nothing); it is still under way. */
export type Owing = 'owed' | 'nothing' | 'open';

/** The fees of one provider leg (slice), in the base units of its source token. */
export interface SliceFees {
  sliceId: string;
  provider: string;
  legStatus: LegStatus;
  owing: Owing;
  /** The settled amount's basis (exact: read from the chain; estimated: the provider's word); null unless settled. */
  basis: AmountBasis | null;
  source: { chainId: number; token: string; symbol: string; decimals: number };
  input: bigint;
  /** The rate asked of the provider (service + markup) and the rate it really charges on this leg. */
  askedBps: number;
  collectedBps: number;
  /** What the provider collects for the fee recipient, split into the service's part and the partner's markup. */
  appFee: bigint;
  serviceFee: bigint;
  markup: bigint;
  /** IntentQuoted.fees.markupOwed at quote time, and the same figure reconciled with settlement. */
  markupRecorded: bigint | null;
  markupRecordedOwed: bigint;
  /** The provider's own fee figure at quote time (USD), this leg's share of its route; owed only when settled. */
  providerFeeUsd: number | null;
}

export interface AttemptFees {
  attemptId: string;
  preparedAt: number;
  status: string;
  legs: SliceFees[];
  /** Records that contradict their own inputs (a recorded markup its input and rates do not give). */
  problems: string[];
}

const BPS = 10_000n;

/**
 * An attempt's fees from what actually settled: each provider leg that settled owes what its provider collects on
 * its input (`collectedBps`, what the provider really charges, ≤ service + markup), the partner's markup being
 * markupBps / askedBps of it, computed as quoting computes it (rounded down once); a leg that failed or was refunded
 * owes nothing, so a partially settled attempt owes on its settled legs only. The markup recorded at quote time is
 * reconciled the same way, and recomputed from its own inputs to catch a record that disagrees with them.
 */
export function attemptFees(record: AttemptRecord, quote: IntentQuotedData | null): AttemptFees {
  const { prepared } = record;
  const problems: string[] = [];
  if (quote === null) problems.push('no IntentQuoted event: the quote-time fees cannot be read');
  const ended = isTerminalAttemptStatus(record.status);
  const providerFees = quote === null ? new Map<string, number | null>() : splitProviderFee(prepared, quote);
  const legs = flattenSlices(prepared).flatMap(({ legIndex, slice }): SliceFees[] => {
    const execution = quote?.execution.flatMap((l) => l.slices).find((s) => s.sliceId === slice.sliceId);
    if (slice.noop || execution === undefined || quote === null) return [];
    const progress = record.slices[legIndex];
    const owing: Owing =
      progress.status === 'settled' ? 'owed' : progress.status === 'failed' || ended ? 'nothing' : 'open';
    const rates = ratesOf(quote.fees, execution);
    const input = BigInt(execution.quotedWith.source.amount);
    const appFee = (input * BigInt(rates.collectedBps)) / BPS;
    const markup = markupOf(input, quote.fees.markupBps, rates);
    const recorded = quote.fees.markupOwed.find((m) => m.sliceId === slice.sliceId);
    const markupRecorded = recorded === undefined ? null : BigInt(recorded.rawAmount);
    if ((markupRecorded ?? 0n) !== markup)
      problems.push(
        `${slice.sliceId}: markup recorded ${markupRecorded ?? 'none'}, its input and rates give ${markup}`,
      );
    const owed = owing === 'owed';
    const { source } = execution.quotedWith;
    return [
      {
        sliceId: slice.sliceId,
        provider: execution.provider,
        legStatus: progress.status,
        owing,
        basis: owed ? progress.amountBasis : null,
        source: {
          chainId: source.chainId,
          token: source.token,
          symbol: source.symbol ?? '',
          decimals: source.decimals,
        },
        input,
        askedBps: rates.askedBps,
        collectedBps: rates.collectedBps,
        appFee: owed ? appFee : 0n,
        serviceFee: owed ? appFee - markup : 0n,
        markup: owed ? markup : 0n,
        markupRecorded,
        markupRecordedOwed: owed ? (markupRecorded ?? 0n) : 0n,
        providerFeeUsd: owed ? (providerFees.get(slice.sliceId) ?? null) : 0,
      },
    ];
  });
  return {
    attemptId: prepared.attemptId,
    preparedAt: prepared.preparedAt,
    status: record.status,
    legs,
    problems,
  };
}

/**
 * The asked rate and the one the provider charges. Sessions record both per leg (the provider's `appFee.bps`, and
 * `collectedBps` on the markup entry); a session stored before they were assumes the whole asked rate was charged.
 */
function ratesOf(
  fees: QuotedFees,
  execution: QuotedSliceExecution,
): { askedBps: number; collectedBps: number } {
  const askedBps = fees.serviceFeeBps + fees.markupBps;
  const entry = fees.markupOwed.find((m) => m.sliceId === execution.sliceId);
  const charged =
    entry?.collectedBps ?? (execution.appFee === undefined ? askedBps : (execution.appFee?.bps ?? 0));
  return { askedBps, collectedBps: Math.min(charged, askedBps) };
}

/** input × markupBps/10 000 × collectedBps/askedBps, divided once: quoting's own rounding (session-execution.ts). */
function markupOf(
  input: bigint,
  markupBps: number,
  rates: { askedBps: number; collectedBps: number },
): bigint {
  if (markupBps === 0 || rates.askedBps === 0) return 0n;
  return (input * BigInt(markupBps * rates.collectedBps)) / (BigInt(rates.askedBps) * BPS);
}
