import { type QuotedLegExecution, type QuotedSliceExecution } from '@svc/domain';
import {
  type ProviderAdapter,
  quoteSliceFromStored,
  type RoutableProvider,
  storedQuote,
} from '@svc/providers';

export type RequoteResult = { ok: true; legs: QuotedLegExecution[] } | { ok: false; message: string };

/**
 * Prepare never hands out calls a provider will reject: a slice whose provider quote is past the provider's own
 * validity, or older than the freshness limit, is quoted again with the very same parameters, and used only if its minimum output is not below the
 * minimum the partner was shown. Otherwise the partner has to quote again (409 quote_changed).
 */
export async function requoteStaleSlices(
  legs: QuotedLegExecution[],
  adapters: Record<RoutableProvider, ProviderAdapter>,
  freshness: { quotedAt: number; now: number; maxAgeMs: number },
  timeoutMs: number,
): Promise<RequoteResult> {
  const { now } = freshness;
  const stale = (slice: QuotedSliceExecution) =>
    (slice.validUntil !== null && slice.validUntil <= now) || now - freshness.quotedAt >= freshness.maxAgeMs;
  const refreshed: QuotedLegExecution[] = [];
  for (const leg of legs) {
    const slices: QuotedSliceExecution[] = [];
    for (const slice of leg.slices) {
      if (!stale(slice)) {
        slices.push(slice);
        continue;
      }
      const result = await adapters[slice.provider as RoutableProvider].quote(
        quoteSliceFromStored(slice.quotedWith),
        { signal: AbortSignal.timeout(timeoutMs) },
      );
      if (!result.ok)
        return {
          ok: false,
          message: `${slice.provider} could not renew its expired quote (${result.failure.reasonCode})`,
        };
      const q = result.quote;
      if (q.minimumOutputRaw < BigInt(slice.minimumOutputRaw)) {
        return {
          ok: false,
          message: `${slice.provider}'s fresh quote would deliver less than the quoted minimum; request a new quote`,
        };
      }
      slices.push({ ...slice, ...storedQuote(q), provider: slice.provider });
    }
    refreshed.push({ ...leg, slices });
  }
  return { ok: true, legs: refreshed };
}
