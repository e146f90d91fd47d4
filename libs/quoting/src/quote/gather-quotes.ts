import { setMaxListeners } from 'node:events';
import { type ProviderName } from '@svc/contract';
import { type SliceQuote } from '@svc/domain';
import { type FairLimiter } from './fair-limiter';
import {
  type ProviderAdapter,
  type ProviderQuote,
  type QuoteSlice,
  type RoutableProvider,
} from '@svc/providers';

export interface GatheredQuotes {
  quotes: SliceQuote[];
  /** The providers' full answers (calls, ids, tracking), by `${sliceId}|${provider}`, for the session record. */
  providerQuotes: Map<string, ProviderQuote>;
  /** What each provider was asked, by the same key. */
  asked: Map<string, QuoteSlice>;
}

export const quoteKey = (sliceId: string, provider: string) => `${sliceId}|${provider}`;

/**
 * Asks every provider for every slice at once, under one deadline. A provider that has not answered when the
 * deadline fires counts as `provider_timeout` for that slice, and the answer is returned on time whatever the
 * adapter does with its abort signal. With `validity`, a quote whose provider deadline (`validUntil`) falls less than
 * `minimumMs` after `now` is `route_unavailable` and not kept: prepare could never hand out its calls, since a wallet
 * signing inside the signable window must still deposit before that deadline (issue 24). With `earlier` (the same
 * quote's first pass, before `excludeUneconomicSources` left sources out), a provider asked the very same question
 * then (same slice id, same slice) is not asked again: its earlier answer, quote or failure, is this one's.
 */
export async function gatherQuotes(
  requests: { provider: RoutableProvider; slice: QuoteSlice }[],
  adapters: Record<RoutableProvider, ProviderAdapter>,
  deadlineMs: number,
  /** Per provider, the places shared with every other quote in flight; this request's calls wait their turn. */
  fairness?: { requestId: string; limiters: Partial<Record<RoutableProvider, FairLimiter>> },
  validity?: { now: number; minimumMs: number },
  /** After each answer (or failure), what has come so far: the same maps, and the slice quotes answered. */
  onAnswer?: (sofar: GatheredQuotes) => void,
  earlier?: GatheredQuotes,
): Promise<GatheredQuotes> {
  const controller = new AbortController();
  // Every provider call of this quote (up to 59 slices × 3 providers) and its place in a limiter listen to this one
  // signal: allow that many, so Node does not warn of a leak on a large quote, and still would on a real one.
  setMaxListeners(10 + 4 * requests.length, controller.signal);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('quote deadline'));
      resolve('timeout');
    }, deadlineMs);
  });
  const providerQuotes = new Map<string, ProviderQuote>();
  const asked = new Map(requests.map(({ provider, slice }) => [quoteKey(slice.sliceId, provider), slice]));
  const answered: SliceQuote[] = [];
  const record = (quote: SliceQuote): SliceQuote => {
    if (onAnswer) {
      answered.push(quote);
      try {
        onAnswer({ quotes: answered, providerQuotes, asked });
      } catch {
        // Only an observer: the quote goes on whatever it does.
      }
    }
    return quote;
  };
  try {
    const quotes = await Promise.all(
      requests.map(async ({ provider, slice }): Promise<SliceQuote> =>
        record(answeredBefore(provider, slice) ?? (await askOne(provider, slice))),
      ),
    );
    return { quotes, providerQuotes, asked };
  } finally {
    clearTimeout(timer);
  }

  /** The earlier pass's answer to this very question, its full quote kept as if asked now; undefined: ask. */
  function answeredBefore(provider: RoutableProvider, slice: QuoteSlice): SliceQuote | undefined {
    const key = quoteKey(slice.sliceId, provider);
    const question = earlier?.asked.get(key);
    if (question === undefined || sliceText(question) !== sliceText(slice)) return undefined;
    const answer = earlier!.quotes.find((q) => q.sliceId === slice.sliceId && q.provider === provider);
    const full = earlier!.providerQuotes.get(key);
    if (answer === undefined || (answer.outcome.ok && full === undefined)) return undefined;
    if (full !== undefined) providerQuotes.set(key, full);
    return answer;
  }

  async function askOne(provider: RoutableProvider, slice: QuoteSlice): Promise<SliceQuote> {
    const answer = await Promise.race([
      // Through a promise even if the adapter throws before returning one: one adapter never fails the quote.
      Promise.resolve()
        .then(() => {
          const ask = () => adapters[provider].quote(slice, { signal: controller.signal });
          const limiter = fairness?.limiters[provider];
          return limiter ? limiter.run(fairness.requestId, ask, controller.signal) : ask();
        })
        .catch((err: unknown) => ({
          ok: false as const,
          failure: {
            reasonCode: 'provider_unavailable',
            // The error's own text can carry a URL, a host or a node's answer: it never reaches a partner (L8).
            reason: `${provider} adapter failed (${err instanceof Error ? err.name : 'unknown error'})`,
          },
        })),
      expired,
    ]);
    if (answer === 'timeout') {
      return {
        sliceId: slice.sliceId,
        provider,
        outcome: {
          ok: false,
          reasonCode: 'provider_timeout',
          reason: `${provider} did not answer within ${deadlineMs} ms`,
        },
      };
    }
    if (!answer.ok)
      return {
        sliceId: slice.sliceId,
        provider,
        outcome: { ok: false, reasonCode: answer.failure.reasonCode, reason: answer.failure.reason },
      };
    const q = answer.quote;
    if (validity && q.validUntil !== null && q.validUntil < validity.now + validity.minimumMs) {
      const holds = Math.max(0, Math.floor((q.validUntil - validity.now) / 1000));
      return {
        sliceId: slice.sliceId,
        provider,
        outcome: {
          ok: false,
          reasonCode: 'route_unavailable',
          reason: `${provider}'s quote holds only ${holds} s, less than the ${Math.ceil(validity.minimumMs / 1000)} s a wallet needs to sign and execute it`,
        },
      };
    }
    providerQuotes.set(quoteKey(slice.sliceId, provider), q);
    return {
      sliceId: slice.sliceId,
      provider: provider as ProviderName,
      outcome: {
        ok: true,
        expectedOutputRaw: q.expectedOutputRaw,
        minimumOutputRaw: q.minimumOutputRaw,
        inputUsd: q.inputUsd,
        outputUsd: q.outputUsd,
        feeUsd: q.feeUsd,
        etaSeconds: q.etaSeconds,
      },
    };
  }
}

/** A slice as comparable text (its amounts are bigint). */
function sliceText(slice: QuoteSlice): string {
  return JSON.stringify(slice, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}
