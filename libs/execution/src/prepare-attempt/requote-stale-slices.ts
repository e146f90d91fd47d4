import { type QuotedLegExecution, type QuotedSliceExecution } from '@svc/domain';
import {
  type ProviderAdapter,
  quoteSliceFromStored,
  type RoutableProvider,
  storedQuote,
} from '@svc/providers';

export type RequoteResult = { ok: true; legs: QuotedLegExecution[] } | { ok: false; message: string };

/**
 * Prepare never hands out calls a provider will reject: a slice whose provider quote stops holding before
 * `deadlineFloor` (the end of the signable window plus execution time: a wallet signing inside the window must still
 * be able to deposit), or is older than the freshness limit, is quoted again with the very same parameters, and used
 * only if its minimum output is not below the minimum the partner was shown and it holds until `deadlineFloor`.
 * Otherwise the partner has to quote again (409 quote_changed).
 */
export async function requoteStaleSlices(
  legs: QuotedLegExecution[],
  adapters: Record<RoutableProvider, ProviderAdapter>,
  freshness: { quotedAt: number; now: number; maxAgeMs: number; deadlineFloor: number },
  timeoutMs: number,
): Promise<RequoteResult> {
  const { now, deadlineFloor } = freshness;
  const tooShort = (validUntil: number | null) => validUntil !== null && validUntil < deadlineFloor;
  const stale = (slice: QuotedSliceExecution) =>
    tooShort(slice.validUntil) || now - freshness.quotedAt >= freshness.maxAgeMs;
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
      if (tooShort(q.validUntil)) {
        const holds = Math.max(0, Math.floor((q.validUntil! - now) / 1000));
        const needs = Math.ceil((deadlineFloor - now) / 1000);
        return {
          ok: false,
          message: `${slice.provider}'s quote holds only ${holds} s, less than the signable window plus execution time (${needs} s) a wallet needs; request a new quote`,
        };
      }
      slices.push({ ...slice, ...storedQuote(q), provider: slice.provider });
    }
    refreshed.push({ ...leg, slices });
  }
  return { ok: true, legs: refreshed };
}
