import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import { type AttemptRecord } from '../attempt/attempt-record';
import { flattenSlices } from '../attempt/attempt-slices';
import { sliceSourceTx } from './slice-source-tx';
import { type TrackingTraits } from './tracking-traits';

/**
 * The open provider legs past their provider's expected fill time and not yet marked: each is under way since its
 * deposit was confirmed, and expected by that time plus the provider's figure.
 */
export function delayedLegs(
  record: AttemptRecord,
  input: { now: number; traitsOf: (provider: string) => TrackingTraits | null },
): { sliceId: string; since: number; expectedBy: number }[] {
  return legDelays(record, input).filter((d) => input.now >= d.expectedBy);
}

/** When each open, unmarked leg will be past its expected fill time: times the tracker must wake at. */
export function legDelayTimes(
  record: AttemptRecord,
  input: { traitsOf: (provider: string) => TrackingTraits | null },
): number[] {
  return legDelays(record, input).map((d) => d.expectedBy);
}

function legDelays(
  record: AttemptRecord,
  { traitsOf }: { traitsOf: (provider: string) => TrackingTraits | null },
): { sliceId: string; since: number; expectedBy: number }[] {
  if (isTerminalAttemptStatus(record.status)) return [];
  return flattenSlices(record.prepared).flatMap(({ slice }) => {
    const progress = record.slices.find((s) => s.sliceId === slice.sliceId);
    const expected = slice.provider === null ? undefined : traitsOf(slice.provider)?.expectedFillSeconds;
    if (progress === undefined || isTerminalLegStatus(progress.status) || progress.delayed !== null)
      return [];
    if (expected === undefined) return [];
    const source = sliceSourceTx(record, slice.sliceId);
    const since = record.sourceTxs.find((t) => t.txHash === source?.txHash)?.at;
    if (since === undefined) return [];
    return [{ sliceId: slice.sliceId, since, expectedBy: since + expected * 1000 }];
  });
}
