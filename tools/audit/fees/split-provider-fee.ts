import { formatRaw, type AttemptPreparedData, type IntentQuotedData } from '@svc/domain';

/**
 * Each provider leg's share of its route's fee, in USD as quoted (`selectedPlan.legs[].summary.totalFeeUsd`, the
 * providers' own figures at quote time: a route's fee is only known for the route as a whole, and for relay and
 * across it counts the app fee they collect too). The share follows the legs' input: their USD value where the quote
 * valued every input, else their amount in token units when they are all one symbol, else equal. Null where the
 * quote had no fee figure. Display numbers (USD, rounded to 6 decimals), never raw amounts.
 */
export function splitProviderFee(
  prepared: AttemptPreparedData,
  quote: IntentQuotedData,
): Map<string, number | null> {
  const shares = new Map<string, number | null>();
  const plan = quote.response.selectedPlan;
  const executions = quote.execution.flatMap((l) => l.slices);
  for (const leg of prepared.legs) {
    const route = plan?.legs.find((l) => l.outputTargetId === leg.targetId && l.provider === leg.provider);
    const fee = route?.summary.totalFeeUsd ?? null;
    const slices = leg.slices.filter((s) => !s.noop);
    const weights = weightsOf(
      slices.map((s) => ({
        usd: inputUsd(quote, leg.targetId, s.sourceIndex),
        source: executions.find((e) => e.sliceId === s.sliceId)?.quotedWith.source ?? null,
      })),
    );
    const total = weights.reduce((a, b) => a + b, 0);
    slices.forEach((s, i) => {
      shares.set(s.sliceId, fee === null ? null : Math.round((fee * weights[i] * 1e6) / total) / 1e6);
    });
  }
  return shares;
}

function weightsOf(
  inputs: { usd: number | null; source: { amount: string; decimals: number; symbol?: string } | null }[],
): number[] {
  if (inputs.every((i) => i.usd !== null && i.usd > 0)) return inputs.map((i) => i.usd!);
  const symbols = new Set(inputs.map((i) => i.source?.symbol ?? null));
  if (symbols.size === 1 && !symbols.has(null) && !symbols.has(undefined as never))
    return inputs.map((i) => Number(formatRaw(BigInt(i.source!.amount), i.source!.decimals)) || 1);
  return inputs.map(() => 1);
}

function inputUsd(quote: IntentQuotedData, targetId: string, sourceIndex: number): number | null {
  const allocation = quote.response.allocationPlan.legs
    .find((l) => l.outputTargetId === targetId)
    ?.sourceAllocations.find((a) => a.inputTokenIndex === sourceIndex);
  const value = allocation?.allocatedUsdValue;
  return value === null || value === undefined ? null : Number(value);
}
