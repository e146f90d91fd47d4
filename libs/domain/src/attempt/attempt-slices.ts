import { type ChainAction, type PerLegPreview, type QuotePlan } from '@svc/contract';
import { type AttemptLeg, type AttemptPreparedData, type AttemptSlice } from './attempt.events';

/** One slice with its leg; `legIndex` is its position in the flattened list (the snapshot's StatusLeg.legIndex). */
export interface FlatSlice {
  legIndex: number;
  leg: AttemptLeg;
  slice: AttemptSlice;
}

export function flattenSlices(prepared: AttemptPreparedData): FlatSlice[] {
  return prepared.legs
    .flatMap((leg) => leg.slices.map((slice) => ({ leg, slice })))
    .map((s, legIndex) => ({ ...s, legIndex }));
}

/** A slice's quote plan on its source chain's action, with the preview prepare showed for it. */
export interface SlicePlan {
  action: ChainAction;
  plan: QuotePlan | null;
  preview: PerLegPreview | null;
  /** The plan's calls, its primary call first. */
  callIds: string[];
}

/**
 * Prepare lays a chain action out as its provider slices in (leg, slice) order, then its no-op transfers: the
 * k-th quote plan of each kind is the k-th slice of that kind on the chain. A no-op slice whose tokens already
 * were in the recipient wallet has no plan; a chain with no action at all (only such slices) gives null.
 */
export function slicePlan(prepared: AttemptPreparedData, sliceId: string): SlicePlan | null {
  const flat = flattenSlices(prepared);
  const target = flat.find((s) => s.slice.sliceId === sliceId);
  const action = prepared.chainActions.find((a) => a.chainId === target?.slice.sourceChainId);
  if (target === undefined || action === undefined) return null;
  const sameKind = flat.filter(
    (s) => s.slice.sourceChainId === action.chainId && s.slice.noop === target.slice.noop,
  );
  const rank = sameKind.indexOf(target);
  const plans = action.quotePlans.filter((p) => (p.provider === DIRECT_PROVIDER) === target.slice.noop);
  const plan = plans[rank];
  if (plan === undefined || plan.outputTargetId !== target.leg.targetId) {
    return { action, plan: null, preview: null, callIds: [] };
  }
  const calls = (action.calls ?? action.transactions ?? []).filter((c) => c.quoteIndex === plan.quoteIndex);
  // The primary call (the deposit) first: the tx that executed it is the slice's source tx, not its approval.
  const primary = calls.filter((c) => c.callIndex === plan.primaryCallIndex);
  return {
    action,
    plan,
    preview: action.perLegPreview[plan.quoteIndex] ?? null,
    callIds: [...primary, ...calls.filter((c) => !primary.includes(c))].map((c) => c.callId),
  };
}

/** The provider name prepare gives no-op transfers (they are ours, not a provider's). */
export const DIRECT_PROVIDER = 'direct';
