import { type AllocationSource, type AllocationTarget } from './allocation.types';
import { isSameSymbolRoute, sliceKind } from './slice-kind';

type Preference = (source: AllocationSource, target: AllocationTarget) => boolean;

/**
 * Slices that need no swap are cheapest and cannot fail, and same-symbol bridges are the next safest, so those
 * sources are spent on the targets they match before anything is routed across tokens. A same-chain swap is
 * never routed (same_chain_unsupported), so such a pairing is the very last resort, after every routable one.
 */
const PASSES: readonly Preference[] = [
  (source, target) => sliceKind(source, target) === 'noop',
  (source, target) => isSameSymbolRoute(source, target),
  (source, target) => sliceKind(source, target) === 'route',
  () => true,
];

/**
 * Fills each target's USD quota from the sources' USD values (both scaled bigints, sources in index order) in
 * four passes; every step takes min(source left, quota left), so a source splits across targets when a quota
 * needs only part of it. Returns the USD assigned per [target][source] position.
 *
 * With Σ quotas = Σ source USD, the last pass leaves nothing: each target in turn either fills its quota or
 * drains every source, so both end at zero and every source is fully allocated.
 */
export function fillQuotas(
  sources: readonly AllocationSource[],
  sourceUsd: readonly bigint[],
  targets: readonly AllocationTarget[],
  quotas: readonly bigint[],
): bigint[][] {
  const sourceLeft = [...sourceUsd];
  const quotaLeft = [...quotas];
  const assigned = targets.map(() => sources.map(() => 0n));
  for (const prefers of PASSES) {
    targets.forEach((target, t) => {
      sources.forEach((source, s) => {
        const take = min(sourceLeft[s], quotaLeft[t]);
        if (take === 0n || !prefers(source, target)) return;
        assigned[t][s] += take;
        sourceLeft[s] -= take;
        quotaLeft[t] -= take;
      });
    });
  }
  return assigned;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
