import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import { type AttemptRecord } from '../attempt/attempt-record';
import { flattenSlices } from '../attempt/attempt-slices';
import { sliceSourceTx } from './slice-source-tx';
import { type TrackingTraits } from './tracking-traits';

interface DelayInput {
  traitsOf: (provider: string) => TrackingTraits | null;
  /** Tolerance added to the expected fill time before a leg counts as delayed. */
  delayMarginMs: number;
}

/**
 * The open provider legs past their expected fill time and not yet marked. A leg is under way since its deposit was
 * confirmed and expected by then plus the provider's own estimate from the quote (else the adapter's declared
 * figure) plus the margin.
 */
export function delayedLegs(
  record: AttemptRecord,
  input: DelayInput & { now: number },
): { sliceId: string; since: number; expectedBy: number }[] {
  return legDelays(record, input).filter((d) => input.now >= d.expectedBy);
}

/** When each open, unmarked leg will be past its expected fill time: times the tracker must wake at. */
export function legDelayTimes(record: AttemptRecord, input: DelayInput): number[] {
  return legDelays(record, input).map((d) => d.expectedBy);
}

function legDelays(
  record: AttemptRecord,
  { traitsOf, delayMarginMs }: DelayInput,
): { sliceId: string; since: number; expectedBy: number }[] {
  if (isTerminalAttemptStatus(record.status)) return [];
  return flattenSlices(record.prepared).flatMap(({ slice }) => {
    const progress = record.slices.find((s) => s.sliceId === slice.sliceId);
    const declared = slice.provider === null ? undefined : traitsOf(slice.provider)?.expectedFillSeconds;
    const expected = slice.etaSeconds ?? declared;
    if (progress === undefined || isTerminalLegStatus(progress.status) || progress.delayed !== null)
      return [];
    if (expected === undefined) return [];
    const source = sliceSourceTx(record, slice.sliceId);
    const since = record.sourceTxs.find((t) => t.txHash === source?.txHash)?.at;
    if (since === undefined) return [];
    return [{ sliceId: slice.sliceId, since, expectedBy: since + expected * 1000 + delayMarginMs }];
  });
}
