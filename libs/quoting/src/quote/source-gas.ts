import { type FailedSource, type QuoteRequest, type SourceGasEstimate } from '@svc/contract';
import {
  type AllocationResult,
  type ProviderSourceValue,
  type QuotedLegExecution,
  type QuoteDecision,
  type SourceGasEstimator,
  type SourceGasFigures,
  SourceGasTimeoutError,
  unavailableSourceGas,
} from '@svc/domain';
import { type GatheredQuotes, quoteKey } from './gather-quotes';
import { routedSlices } from './session-execution';

/**
 * How long a quote waits for its sources' gas as a whole before reporting them `unavailable`: a backstop above the
 * estimator's own budget per chain (CHAIN_GAS_BUDGET_MS, 1.5 s), which leaves only a slow chain's sources unavailable.
 */
export const SOURCE_GAS_BUDGET_MS = 2_000;

/** Every routed source `unavailable`, when the estimate as a whole failed or ran out of time. */
export function unavailableFigures(
  legs: readonly QuotedLegExecution[],
  request: QuoteRequest,
  estimator: SourceGasEstimator,
  error: unknown,
): SourceGasFigures[] {
  const indexes = [
    ...new Set(legs.flatMap((leg) => [...leg.slices, ...leg.noopSlices].map((s) => s.sourceIndex))),
  ].sort((a, b) => a - b);
  const reason =
    error instanceof SourceGasTimeoutError
      ? `gas not estimated: ${error.message}`
      : `gas not estimated: ${(error as Error)?.name ?? 'error'}`;
  return indexes.map((index) => {
    const chainId = request.sources[index].chainId;
    return unavailableSourceGas(index, chainId, estimator.nativeSymbol(chainId) ?? '', reason);
  });
}

/** The selected slices' inputs as their providers valued them (a source's value when the request gave none). */
export function providerSourceValues(
  decision: QuoteDecision,
  gathered: GatheredQuotes,
): ProviderSourceValue[] {
  return routedSlices(decision).map((s) => ({
    sourceIndex: s.sourceIndex,
    provider: s.provider,
    rawAmount: s.rawAmount,
    inputUsd: gathered.providerQuotes.get(quoteKey(s.sliceId, s.provider))?.inputUsd ?? null,
  }));
}

/**
 * The failedSources entries of the sources left out at excludeUneconomicSources: one per slice the first pass had
 * allocated them (so per target), reasonCode `source_uneconomic`, with the figures that decided it.
 */
export function excludedSources(
  allocation: AllocationResult,
  left: readonly SourceGasEstimate[],
  thresholdBps: number,
): FailedSource[] {
  return allocation.legs.flatMap((leg) =>
    leg.slices.flatMap((slice) => {
      const gas = left.find((s) => s.inputTokenIndex === slice.sourceIndex);
      if (!gas) return [];
      const cost = gas.costUsd === null ? `${gas.costNativeRaw} wei` : `$${gas.costUsd}`;
      return [
        {
          outputTargetId: leg.target.id,
          provider: null,
          symbol: slice.symbol ?? '',
          address: slice.address,
          chainId: slice.chainId,
          reasonCode: 'source_uneconomic',
          reason: `gas of ${cost} is ${gas.costShareBps} bps of the source's value, at or above the threshold of ${thresholdBps} bps`,
          inputTokenIndex: slice.sourceIndex,
          amount: slice.rawAmount.toString(),
        },
      ];
    }),
  );
}

/**
 * Calls `speculate` once, with the answers so far, when every provider but one has answered every slice it was asked
 * (the last one is the one awaited; the plan the others' answers route is what the chains are read for meanwhile). It
 * runs on the next turn of the event loop, so answers that come together count together, and never after `stop` (the
 * final plan is estimated then anyway). A quote asking one provider never speculates. What `speculate` throws is
 * ignored: a speculation is only ever a head start.
 */
export function speculateOnAnswers(speculate: (answers: GatheredQuotes) => void): {
  onAnswer: (sofar: GatheredQuotes) => void;
  stop: () => void;
} {
  let latest: GatheredQuotes | null = null;
  let scheduled: NodeJS.Immediate | null = null;
  let done = false;
  return {
    onAnswer: (sofar) => {
      latest = sofar;
      if (scheduled !== null || done || !lastProviderAwaited(sofar)) return;
      scheduled = setImmediate(() => {
        scheduled = null;
        if (done || latest === null) return;
        done = true;
        try {
          speculate(latest);
        } catch {
          // A provisional plan that cannot be routed is not speculated on.
        }
      });
    },
    stop: () => {
      done = true;
      if (scheduled !== null) clearImmediate(scheduled);
      scheduled = null;
    },
  };
}

/** Whether several providers were asked and exactly one has not yet answered every slice it was asked. */
function lastProviderAwaited(sofar: GatheredQuotes): boolean {
  const owed = new Map<string, number>();
  for (const key of sofar.asked.keys()) {
    const provider = key.slice(key.indexOf('|') + 1);
    owed.set(provider, (owed.get(provider) ?? 0) + 1);
  }
  for (const quote of sofar.quotes) owed.set(quote.provider, (owed.get(quote.provider) ?? 0) - 1);
  return owed.size > 1 && [...owed.values()].filter((left) => left > 0).length === 1;
}
