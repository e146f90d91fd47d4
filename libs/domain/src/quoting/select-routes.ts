import { type ProviderName } from '@svc/contract';
import { type EvaluatedLeg, type RouteEvaluation, type SliceFailure } from './route-evaluation';
import { sumUsd } from './usd';

export type QuoteStatusDecision = 'ready' | 'partial_only' | 'unavailable';

export interface LegSelection {
  evaluated: EvaluatedLeg;
  /** The chosen route (full, else the best partial), or null when nothing is covered. */
  route: RouteEvaluation | null;
}

export interface QuoteDecision {
  quoteStatus: QuoteStatusDecision;
  coverageMode: 'full' | 'partial' | 'none';
  isFullPlan: boolean;
  /** Legs with a chosen route, in target order; empty when unavailable. */
  selected: LegSelection[];
  allLegs: LegSelection[];
  failedSources: SliceFailure[];
  summary: {
    totalOutputUsd: number | null;
    totalFeeUsd: number | null;
    totalLossUsd: number | null;
    timeEstimate: number | null;
  };
}

/**
 * Per target: the full route with the highest expected output; ties → fastest → provider order. Without a full
 * route, the route covering the most input USD (then the most slices, then output) is the leg's best partial.
 * The status follows (spec "Quote states"): ready when every target has a full route, or when `allowPartial` and
 * something is covered; partial_only when only part is covered without `allowPartial` (the plan is shown,
 * prepare refuses it); unavailable when nothing is covered.
 */
export function decideQuote(
  legs: EvaluatedLeg[],
  allowPartial: boolean,
  providerOrder: readonly ProviderName[],
): QuoteDecision {
  // A leg left with no slice (every source left out as uneconomic) has nothing to route: no route, not a full one.
  const allLegs = legs.map((evaluated) => ({
    evaluated,
    route: evaluated.leg.slices.length === 0 ? null : chooseRoute(evaluated.routes, providerOrder),
  }));
  const allFull = allLegs.every((l) => l.route?.isFullRoute === true);
  const anyCovered = allLegs.some((l) => l.route !== null);
  const quoteStatus: QuoteStatusDecision = allFull
    ? 'ready'
    : anyCovered
      ? allowPartial
        ? 'ready'
        : 'partial_only'
      : 'unavailable';
  const selected = quoteStatus === 'unavailable' ? [] : allLegs.filter((l) => l.route !== null);
  const routes = selected.map((l) => l.route as RouteEvaluation);
  return {
    quoteStatus,
    coverageMode: allFull ? 'full' : anyCovered ? 'partial' : 'none',
    isFullPlan: allFull,
    selected,
    allLegs,
    failedSources: allLegs.flatMap(failuresOf),
    summary: {
      totalOutputUsd: routes.length ? sumUsd(routes.map((r) => r.outputUsd)) : null,
      totalFeeUsd: routes.length ? sumUsd(routes.map((r) => r.feeUsd)) : null,
      totalLossUsd: routes.length ? sumUsd(routes.map((r) => r.lossUsd)) : null,
      timeEstimate:
        routes.length && routes.every((r) => r.etaSeconds !== null)
          ? Math.max(...routes.map((r) => r.etaSeconds as number))
          : null,
    },
  };
}

export function chooseRoute(
  routes: readonly RouteEvaluation[],
  providerOrder: readonly ProviderName[],
): RouteEvaluation | null {
  const order = (r: RouteEvaluation) => providerOrder.indexOf(r.provider);
  const eta = (r: RouteEvaluation) => r.etaSeconds ?? Number.POSITIVE_INFINITY;
  const byOutput = (a: RouteEvaluation, b: RouteEvaluation) =>
    a.expectedOutputRaw === b.expectedOutputRaw ? 0 : a.expectedOutputRaw > b.expectedOutputRaw ? -1 : 1;
  const full = routes
    .filter((r) => r.isFullRoute)
    .sort((a, b) => byOutput(a, b) || eta(a) - eta(b) || order(a) - order(b));
  if (full[0]) return full[0];
  const partial = routes
    .filter((r) => r.coveredSliceCount > 0)
    .sort(
      (a, b) =>
        (b.coveredInputUsd ?? 0) - (a.coveredInputUsd ?? 0) ||
        b.coveredSliceCount - a.coveredSliceCount ||
        byOutput(a, b) ||
        eta(a) - eta(b) ||
        order(a) - order(b),
    );
  return partial[0] ?? null;
}

/** Uncovered slices of a leg: the chosen route's failures, or every route's when none was chosen. */
function failuresOf(selection: LegSelection): SliceFailure[] {
  if (selection.route) return selection.route.failures;
  const { routes, unroutable } = selection.evaluated;
  return routes.length
    ? [...unroutable, ...routes.flatMap((r) => r.failures.filter((f) => f.provider !== null))]
    : unroutable;
}
