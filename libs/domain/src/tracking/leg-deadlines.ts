import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import { type AttemptRecord } from '../attempt/attempt-record';
import { flattenSlices } from '../attempt/attempt-slices';
import { sliceSourceTx } from './slice-source-tx';
import { type TrackingTraits } from './tracking-traits';

interface LegDeadlineInput {
  traitsOf: (provider: string) => TrackingTraits | null;
  /** The policy's tracking limit: no leg ends before preparedAt + this. */
  trackingLimitMs: number;
}

/**
 * Until when each open leg is followed (epoch ms, by slice id): the policy's tracking limit, or later when the leg's
 * provider can still act on its deposit after it. A leg whose deposit was seen (its source transaction confirmed, or
 * the provider named the deposit's own fill deadline) is followed until its fill deadline plus the provider's refund
 * window: the deposit's own deadline when the tracker read it (across `fillDeadline`, mayan's `deadline`, recorded
 * as `fillDeadlineAt`), else the deposit's confirmation plus the provider's declared fill window. A leg no deposit was
 * seen for, a no-op leg, a leg whose provider already named a fill (rejected: no refund follows a fill), or a
 * provider that declares neither window, ends at the tracking limit as before.
 */
export function legDeadlines(record: AttemptRecord, input: LegDeadlineInput): Record<string, number> {
  if (isTerminalAttemptStatus(record.status)) return {};
  const limitAt = record.prepared.preparedAt + input.trackingLimitMs;
  const deadlines: Record<string, number> = {};
  for (const { slice } of flattenSlices(record.prepared)) {
    const progress = record.slices.find((s) => s.sliceId === slice.sliceId);
    if (progress === undefined || isTerminalLegStatus(progress.status)) continue;
    // A leg whose provider already named a fill (one that was rejected: reverted, nothing or the wrong token) has
    // had its provider act: no refund follows a fill, so it ends at the tracking limit.
    const filledOnce = progress.rejectedFills.length > 0;
    const traits = slice.provider === null || filledOnce ? null : input.traitsOf(slice.provider);
    const fillBy = traits === null ? null : fillDeadline(record, slice.sliceId, traits);
    deadlines[slice.sliceId] =
      fillBy === null ? limitAt : Math.max(limitAt, fillBy + refundWindow(slice.trackingContext, traits));
  }
  return deadlines;
}

/**
 * After the fill deadline, how long the leg's refund may take: the provider's declared window, or the leg's own quote's
 * figure when that is longer (Across `refundPolicy.expectedRefundTimeMs`, an estimate: it may lengthen the window,
 * never shorten it below the provider's documented path); none when the quote said the route has no refund at all.
 */
function refundWindow(context: Record<string, unknown> | null, traits: TrackingTraits | null): number {
  const quoted = quotedRefundTerms(context);
  if (quoted.refundUnsupported !== undefined) return 0;
  return Math.max(traits?.refundWindowMs ?? 0, quoted.refundWindowMs ?? 0);
}

/**
 * The refund terms a leg's quote stated, stored in its tracking context (optional fields, absent on older attempts):
 * `refundWindowMs` (ms after the fill deadline) and `refundUnsupported` (the provider's reason there is no refund).
 */
export function quotedRefundTerms(context: Record<string, unknown> | null): {
  refundWindowMs?: number;
  refundUnsupported?: string;
} {
  if (context === null) return {};
  const { refundWindowMs, refundUnsupported } = context;
  return {
    ...(typeof refundWindowMs === 'number' && Number.isFinite(refundWindowMs) && refundWindowMs > 0
      ? { refundWindowMs }
      : {}),
    ...(typeof refundUnsupported === 'string' ? { refundUnsupported } : {}),
  };
}

/** The latest time the provider may still fill the leg, as far as the attempt's facts tell; null when unknown. */
function fillDeadline(record: AttemptRecord, sliceId: string, traits: TrackingTraits): number | null {
  const recorded = record.slices.find((s) => s.sliceId === sliceId)?.fillDeadlineAt ?? null;
  if (recorded !== null) return recorded;
  if (traits.fillWindowMs === undefined) return null;
  const source = sliceSourceTx(record, sliceId);
  const since = record.sourceTxs.find((t) => t.txHash === source?.txHash)?.at;
  return since === undefined ? null : since + traits.fillWindowMs;
}
