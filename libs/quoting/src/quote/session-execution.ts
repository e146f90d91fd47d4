import {
  type AllocationSlice,
  type QuotedAppFee,
  type QuoteDecision,
  type QuotedFees,
  type QuotedLegExecution,
} from '@svc/domain';
import { type ProviderName } from '@svc/contract';
import { type ProviderQuote, type QuoteSlice, storedQuote, storedQuoteSlice } from '@svc/providers';
import { type GatheredQuotes, quoteKey } from './gather-quotes';

/** The provider data prepare needs, for the selected routes only (calls verbatim, amounts as strings). */
export function sessionExecution(decision: QuoteDecision, gathered: GatheredQuotes): QuotedLegExecution[] {
  return decision.selected.map(({ evaluated, route }) => {
    const provider = route!.provider;
    const covered = new Set(route!.coveredSliceIds);
    const slices = evaluated.leg.slices.filter((s) => covered.has(s.sliceId));
    return {
      targetId: evaluated.leg.target.id,
      provider,
      noopSlices: slices
        .filter((s) => s.kind === 'noop')
        .map((s) => ({
          sliceId: s.sliceId,
          sourceIndex: s.sourceIndex,
          chainId: s.chainId,
          token: s.address,
          rawAmount: s.rawAmount.toString(),
        })),
      slices: slices
        .filter((s) => s.kind === 'route')
        .map((s) =>
          toSliceExecution(
            s,
            gathered.providerQuotes.get(quoteKey(s.sliceId, provider)) as ProviderQuote,
            gathered.asked.get(quoteKey(s.sliceId, provider)) as QuoteSlice,
          ),
        ),
    };
  });
}

function toSliceExecution(slice: AllocationSlice, q: ProviderQuote, asked: QuoteSlice) {
  return {
    sliceId: slice.sliceId,
    sourceIndex: slice.sourceIndex,
    ...storedQuote(q),
    quotedWith: storedQuoteSlice(asked),
  };
}

/**
 * The markup (partner's share of the app fee) owed per covered slice, with the provider that carries it and how that
 * provider pays the fee (an off-chain balance to claim, or on chain where). The providers are asked for
 * serviceFeeBps + markupBps; the partner's share of what a provider actually charges is markupBps / that sum of it, so
 * markupBps of the input when the whole rate is charged, proportionally less when the provider caps it (Mayan Swift,
 * review D12/D15), nothing when it charges none: never a markup owed out of a fee nobody collected.
 */
export function sessionFees(
  decision: QuoteDecision,
  fee: { serviceFeeBps: number; markupBps: number; recipient: string | null },
  gathered: GatheredQuotes,
): QuotedFees {
  const slices = routedSlices(decision);
  const askedBps = fee.serviceFeeBps + fee.markupBps;
  return {
    ...fee,
    markupOwed:
      fee.markupBps === 0
        ? []
        : slices.map((s) => {
            const quote = gathered.providerQuotes.get(quoteKey(s.sliceId, s.provider));
            const collectedBps = Math.min(quote?.appFee?.bps ?? 0, askedBps);
            // input × markupBps/10 000 × collectedBps/askedBps, divided once (rounded down to a base unit).
            const share = BigInt(fee.markupBps * collectedBps);
            const per = BigInt(askedBps) * 10_000n;
            return {
              sliceId: s.sliceId,
              chainId: s.chainId,
              token: s.address,
              rawAmount: ((s.rawAmount * share) / per).toString(),
              usd:
                s.usdValue === null
                  ? null
                  : Math.round((Number(s.usdValue) * 1_000_000 * Number(share)) / Number(per)) / 1_000_000,
              provider: s.provider,
              collectedAs: collectedAs(quote),
              collectedBps,
            };
          }),
  };
}

function collectedAs(quote: ProviderQuote | undefined): QuotedAppFee | null {
  return quote?.appFee ? { ...quote.appFee } : null;
}

/** The provider-routed slices the selected routes cover, each with its provider. */
export function routedSlices(decision: QuoteDecision): (AllocationSlice & { provider: ProviderName })[] {
  return decision.selected.flatMap(({ evaluated, route }) =>
    evaluated.leg.slices
      .filter((s) => s.kind === 'route' && route!.coveredSliceIds.includes(s.sliceId))
      .map((s) => ({ ...s, provider: route!.provider })),
  );
}

/** expiresAt = quote time + TTL, never later than the earliest deadline among the selected providers' quotes. */
export function sessionExpiry(
  quotedAt: number,
  ttlSeconds: number,
  decision: QuoteDecision,
  gathered: GatheredQuotes,
): number {
  const deadlines = decision.selected.flatMap(({ route }) =>
    route!.coveredSliceIds.map(
      (id) => gathered.providerQuotes.get(quoteKey(id, route!.provider))?.validUntil ?? null,
    ),
  );
  return Math.min(quotedAt + ttlSeconds * 1000, ...deadlines.filter((d): d is number => d !== null));
}
