import { type ProviderName } from '@svc/contract';
import { type AllocationLeg, type AllocationSlice } from '../allocation';
import { type EvaluatedLeg, type RouteEvaluation, type SliceFailure } from './route-evaluation';
import { type SliceQuote } from './slice-quote';
import { lossBeyondFees, parseUsd, roundUsd, sumUsd } from './usd';

/**
 * Every (target, provider) route of one leg from the providers' answers. Pure: the quotes were gathered before.
 * `providers` is the considered set in provider order; an empty set leaves every slice `no_allowed_provider`.
 */
export function evaluateLeg(
  leg: AllocationLeg,
  providers: readonly ProviderName[],
  quotes: readonly SliceQuote[],
): EvaluatedLeg {
  if (providers.length === 0) {
    const unroutable = leg.slices.map((slice) =>
      failure(slice, null, 'no_allowed_provider', 'no provider is allowed for this request'),
    );
    return { leg, routes: [], unroutable };
  }
  const unroutable = leg.slices
    .filter((s) => s.kind === 'same_chain_unsupported')
    .map((slice) =>
      failure(
        slice,
        null,
        'same_chain_unsupported',
        'a different token on the same chain needs a swap, which no provider routes here',
      ),
    );
  const routes = providers.map((provider) => evaluateRoute(leg, provider, quotes, unroutable));
  markBest(routes);
  return { leg, routes, unroutable };
}

function evaluateRoute(
  leg: AllocationLeg,
  provider: ProviderName,
  quotes: readonly SliceQuote[],
  unroutable: SliceFailure[],
): RouteEvaluation {
  const failures: SliceFailure[] = [...unroutable];
  const covered: {
    slice: AllocationSlice;
    expected: bigint;
    minimum: bigint;
    inputUsd: number | null;
    outputUsd: number | null;
    feeUsd: number | null;
    eta: number | null;
  }[] = [];
  let requiredQuoteCount = 0;
  for (const slice of leg.slices) {
    if (slice.kind === 'noop') {
      const usd = parseUsd(slice.usdValue);
      covered.push({
        slice,
        expected: slice.rawAmount,
        minimum: slice.rawAmount,
        inputUsd: usd,
        outputUsd: usd,
        feeUsd: 0,
        eta: 0,
      });
      continue;
    }
    if (slice.kind !== 'route') continue;
    requiredQuoteCount += 1;
    const quote = quotes.find((q) => q.sliceId === slice.sliceId && q.provider === provider);
    if (!quote) {
      failures.push(failure(slice, provider, 'provider_unavailable', `${provider} gave no answer`));
    } else if (!quote.outcome.ok) {
      failures.push(failure(slice, provider, quote.outcome.reasonCode, quote.outcome.reason));
    } else {
      const o = quote.outcome;
      const inputUsd = parseUsd(slice.usdValue) ?? o.inputUsd;
      covered.push({
        slice,
        expected: o.expectedOutputRaw,
        minimum: o.minimumOutputRaw,
        inputUsd,
        outputUsd: o.outputUsd,
        feeUsd: o.feeUsd,
        eta: o.etaSeconds,
      });
    }
  }
  const coveredSliceCount = covered.length;
  const total = leg.slices.length;
  const inputUsd = sumUsd(covered.map((c) => c.inputUsd));
  const outputUsd = sumUsd(covered.map((c) => c.outputUsd));
  const feeUsd = sumUsd(covered.map((c) => c.feeUsd));
  const etas = covered.map((c) => c.eta);
  return {
    routeId: `${leg.target.id}:${provider}`,
    targetId: leg.target.id,
    provider,
    totalSliceCount: total,
    noopSliceCount: leg.slices.filter((s) => s.kind === 'noop').length,
    requiredQuoteCount,
    coveredSliceCount,
    rejectedQuoteCount: failures.filter((f) => f.provider === provider).length,
    isFullRoute: coveredSliceCount === total,
    availability: coveredSliceCount === total ? 'full' : coveredSliceCount > 0 ? 'partial' : 'none',
    coveredSliceIds: covered.map((c) => c.slice.sliceId),
    expectedOutputRaw: covered.reduce((sum, c) => sum + c.expected, 0n),
    minimumOutputRaw: covered.reduce((sum, c) => sum + c.minimum, 0n),
    coveredInputUsd: inputUsd,
    outputUsd,
    feeUsd,
    lossUsd: lossBeyondFees(inputUsd, outputUsd, feeUsd),
    etaSeconds:
      coveredSliceCount === 0 || etas.some((e) => e === null)
        ? null
        : roundUsd(Math.max(...(etas as number[]))),
    isBestReturn: false,
    isFastest: false,
    failures,
  };
}

/** Among routes that cover anything: the highest expected output, and the shortest ETA. */
function markBest(routes: RouteEvaluation[]): void {
  const live = routes.filter((r) => r.coveredSliceCount > 0 && r.requiredQuoteCount > 0);
  if (live.length === 0) return;
  const best = live.reduce((max, r) => (r.expectedOutputRaw > max ? r.expectedOutputRaw : max), 0n);
  const timed = live.filter((r) => r.etaSeconds !== null);
  const fastest = timed.length ? Math.min(...timed.map((r) => r.etaSeconds as number)) : null;
  for (const r of live) {
    r.isBestReturn = r.expectedOutputRaw === best;
    r.isFastest = fastest !== null && r.etaSeconds === fastest;
  }
}

function failure(
  slice: AllocationSlice,
  provider: ProviderName | null,
  reasonCode: string,
  reason: string,
): SliceFailure {
  return { slice, provider, reasonCode, reason };
}
