import { type FeeKind } from './provider-quote';

export type FeeLine = { kind: FeeKind; usd: number };

/**
 * Fee lines with a figure, and their total. Zero lines are dropped (they say nothing); the total is null only
 * when the provider gave no fee figure at all, so "free" and "unknown" stay different.
 */
export function feeSummary(lines: { kind: FeeKind; usd: number | null }[]): {
  feeUsd: number | null;
  feeBreakdown: FeeLine[];
} {
  const known = lines.filter((line): line is FeeLine => line.usd !== null);
  if (known.length === 0) return { feeUsd: null, feeBreakdown: [] };
  return {
    feeUsd: known.reduce((sum, line) => sum + line.usd, 0),
    feeBreakdown: known.filter((line) => line.usd !== 0),
  };
}

/** A provider's signed impact (negative = the user loses) as a non-negative loss. */
export function lossFromImpact(impactUsd: number | null): number | null {
  return impactUsd === null ? null : Math.max(0, -impactUsd);
}
