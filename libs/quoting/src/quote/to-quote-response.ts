import {
  type AllocationPlan,
  type FailedSource,
  type LegOutputRef,
  type QuoteResponse,
  type QuoteStatus,
  type RouteEvaluationGroup,
  type SelectedPlan,
  type Target,
} from '@svc/contract';
import {
  type AllocationLeg,
  type AllocationResult,
  formatRaw,
  type QuoteDecision,
  type RouteEvaluation,
  type SliceFailure,
} from '@svc/domain';

/** Maps the domain's allocation and decision onto the v1 wire shape (spec "QuoteResponse"). Pure. */
export function toQuoteResponse(input: {
  intentSessionId: string;
  expiresAt: number;
  allocation: AllocationResult;
  decision: QuoteDecision;
  priceUsd: (targetId: string) => string | null;
}): Omit<QuoteResponse, 'apiVersion'> {
  const { allocation, decision } = input;
  const targets = new Map(
    allocation.legs.map((leg) => [leg.target.id, toTarget(leg, input.priceUsd(leg.target.id))]),
  );
  const target = (id: string) => targets.get(id) as Target;
  const legOf = (id: string) => allocation.legs.find((l) => l.target.id === id) as AllocationLeg;
  return {
    quoteStatus: decision.quoteStatus,
    intentSessionId: input.intentSessionId,
    expiresAt: new Date(input.expiresAt).toISOString(),
    coverageMode: decision.coverageMode,
    allocationPlan: toAllocationPlan(allocation, target),
    selectedPlan: decision.quoteStatus === 'unavailable' ? null : toSelectedPlan(decision, target, legOf),
    failedSources: decision.failedSources.map(toFailedSource),
    routeEvaluations: decision.allLegs.map(({ evaluated, route }): RouteEvaluationGroup => ({
      outputTargetId: evaluated.leg.target.id,
      quoteStatus: groupStatus(route),
      selectedRouteId: route?.routeId ?? null,
      evaluations: evaluated.routes.map((r) => ({
        outputTargetId: r.targetId,
        routeId: r.routeId,
        provider: r.provider,
        coveredSliceCount: r.coveredSliceCount,
        totalSliceCount: r.totalSliceCount,
        isFullRoute: r.isFullRoute,
        availability: r.availability,
        isSelected: route?.routeId === r.routeId,
        failedSources: r.failures.map(toFailedSource),
        requiredQuoteCount: r.requiredQuoteCount,
        noopSliceCount: r.noopSliceCount,
        rejectedQuoteCount: r.rejectedQuoteCount,
        isBestReturn: r.isBestReturn,
        isFastest: r.isFastest,
        ...amounts(r, evaluated.leg),
        output: outputRef(evaluated.leg),
        totalOutputUsd: r.outputUsd,
        totalFeeUsd: r.feeUsd,
        totalLossUsd: r.lossUsd,
        timeEstimate: r.etaSeconds,
      })),
    })),
  };
}

function toSelectedPlan(
  decision: QuoteDecision,
  target: (id: string) => Target,
  legOf: (id: string) => AllocationLeg,
): SelectedPlan {
  const routes = decision.selected.map((s) => s.route as RouteEvaluation);
  const allSlices = decision.allLegs.reduce((n, l) => n + l.evaluated.leg.slices.length, 0);
  return {
    isFullPlan: decision.isFullPlan,
    coveredSliceCount: routes.reduce((n, r) => n + r.coveredSliceCount, 0),
    totalSliceCount: allSlices,
    providerSet: [...new Set(routes.map((r) => r.provider))],
    legs: routes.map((r) => ({
      outputTargetId: r.targetId,
      routeId: r.routeId,
      provider: r.provider,
      target: target(r.targetId),
      coveredSliceCount: r.coveredSliceCount,
      totalSliceCount: r.totalSliceCount,
      requiredQuoteCount: r.requiredQuoteCount,
      noopSliceCount: r.noopSliceCount,
      isFullRoute: r.isFullRoute,
      summary: {
        ...amounts(r, legOf(r.targetId)),
        output: outputRef(legOf(r.targetId)),
        totalOutputUsd: r.outputUsd,
        totalFeeUsd: r.feeUsd,
        totalLossUsd: r.lossUsd,
        timeEstimate: r.etaSeconds,
      },
      failedSources: r.failures.map(toFailedSource),
    })),
    summary: decision.summary,
  };
}

function amounts(route: RouteEvaluation, leg: AllocationLeg) {
  const covered = route.coveredSliceCount > 0;
  return {
    expectedOutputRaw: covered ? route.expectedOutputRaw.toString() : null,
    minimumOutputRaw: covered ? route.minimumOutputRaw.toString() : null,
    expectedOutputAmount: covered ? formatRaw(route.expectedOutputRaw, leg.target.decimals) : null,
    minimumOutputAmount: covered ? formatRaw(route.minimumOutputRaw, leg.target.decimals) : null,
  };
}

function toAllocationPlan(allocation: AllocationResult, target: (id: string) => Target): AllocationPlan {
  return {
    legs: allocation.legs.map((leg) => ({
      outputTargetId: leg.target.id,
      target: target(leg.target.id),
      sourceAllocations: leg.slices.map((s) => ({
        inputTokenIndex: s.sourceIndex,
        chainId: s.chainId,
        address: s.address,
        symbol: s.symbol ?? '',
        decimals: s.decimals,
        allocatedRawAmount: s.rawAmount.toString(),
        allocatedAmount: s.formattedAmount,
        isNoop: s.kind === 'noop',
        isSameSymbolRoute: s.isSameSymbolRoute,
        allocatedUsdValue: s.usdValue,
      })),
    })),
  };
}

function toTarget(leg: AllocationLeg, priceUsd: string | null): Target {
  const t = leg.target;
  return {
    id: t.id,
    chainId: t.chainId,
    address: t.address,
    allocationPercent: t.allocationPercent,
    targetToken: {
      address: t.address,
      chainId: t.chainId,
      symbol: t.symbol ?? '',
      decimals: t.decimals,
      priceUSD: priceUsd,
    },
  };
}

function outputRef(leg: AllocationLeg): LegOutputRef {
  const t = leg.target;
  return { chainId: t.chainId, tokenAddress: t.address, symbol: t.symbol ?? '', decimals: t.decimals };
}

export function toFailedSource(f: SliceFailure): FailedSource {
  return {
    outputTargetId: f.slice.targetId,
    provider: f.provider,
    symbol: f.slice.symbol ?? '',
    address: f.slice.address,
    chainId: f.slice.chainId,
    reasonCode: f.reasonCode,
    reason: f.reason,
    inputTokenIndex: f.slice.sourceIndex,
    amount: f.slice.rawAmount.toString(),
  };
}

function groupStatus(route: RouteEvaluation | null): QuoteStatus {
  return route === null ? 'unavailable' : route.isFullRoute ? 'ready' : 'partial_only';
}
