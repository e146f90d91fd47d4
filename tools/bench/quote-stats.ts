/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    max: Math.max(...values),
  };
}

/** `{ ready: 30 }` → "ready ×30"; several statuses in descending count. */
export function formatCounts(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${key} ×${n}`)
    .join(', ');
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

interface FailedSourceShape {
  provider?: unknown;
  reasonCode?: unknown;
}

interface EvaluationShape {
  provider?: unknown;
  requiredQuoteCount?: unknown;
  noopSliceCount?: unknown;
  coveredSliceCount?: unknown;
  failedSources?: unknown;
}

/** What the benchmark reads from a 200 quote response (the v1 QuoteResponse). */
export interface QuoteFacts {
  quoteStatus: string;
  /** Provider quote calls the request fanned out to: each provider route's requiredQuoteCount, summed. */
  providerCalls: number;
  /** Per provider: slices it covered, and its failed slices by reason code. */
  byProvider: Record<
    string,
    { required: number; noop: number; covered: number; failed: Record<string, number> }
  >;
}

export class UnexpectedQuoteResponseError extends Error {
  override readonly name = 'UnexpectedQuoteResponseError';
}

export function readQuoteFacts(body: unknown): QuoteFacts {
  const response = body as { quoteStatus?: unknown; routeEvaluations?: unknown } | null;
  if (typeof response?.quoteStatus !== 'string' || !Array.isArray(response.routeEvaluations)) {
    throw new UnexpectedQuoteResponseError(`not a quote response: ${JSON.stringify(body).slice(0, 300)}`);
  }
  const byProvider: QuoteFacts['byProvider'] = {};
  let providerCalls = 0;
  for (const group of response.routeEvaluations as { evaluations?: unknown }[]) {
    for (const e of (Array.isArray(group.evaluations) ? group.evaluations : []) as EvaluationShape[]) {
      const provider = String(e.provider);
      const entry = (byProvider[provider] ??= { required: 0, noop: 0, covered: 0, failed: {} });
      const required = Number(e.requiredQuoteCount ?? 0);
      entry.required += required;
      entry.noop += Number(e.noopSliceCount ?? 0);
      entry.covered += Number(e.coveredSliceCount ?? 0);
      providerCalls += required;
      const failed = (Array.isArray(e.failedSources) ? e.failedSources : []) as FailedSourceShape[];
      for (const f of failed.filter((x) => x.provider === provider)) {
        const code = String(f.reasonCode);
        entry.failed[code] = (entry.failed[code] ?? 0) + 1;
      }
    }
  }
  return { quoteStatus: response.quoteStatus, providerCalls, byProvider };
}
