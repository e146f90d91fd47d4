import { feeSummary, lossFromImpact } from '../fee-summary';
import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderQuote } from '../provider-quote';
import { baseUnits, optionalRecord, record, seconds, usd, type JsonRecord } from '../response/json-fields';
import { relayCalls } from './relay-calls';

/** A `POST /quote/v2` 200 answer as our quote (reference/providers.md §1.2). */
export function parseRelayQuote(body: unknown, slice: QuoteSlice): ProviderQuote {
  const answer = record(body, 'body');
  const details = record(answer.details, 'details');
  const currencyOut = record(details.currencyOut, 'details.currencyOut');
  const { calls, requestId } = relayCalls(answer.steps, slice.source.chainId);
  return {
    provider: 'relay',
    sliceId: slice.sliceId,
    expectedOutputRaw: baseUnits(currencyOut.amount, 'details.currencyOut.amount'),
    minimumOutputRaw: baseUnits(currencyOut.minimumAmount, 'details.currencyOut.minimumAmount'),
    inputUsd: usd(optionalRecord(details.currencyIn)?.amountUsd),
    outputUsd: usd(currencyOut.amountUsd),
    ...relayFees(answer, details),
    // swapImpact excludes fees (totalImpact includes them), which is exactly "lost beyond fees".
    lossUsd: lossFromImpact(usd(optionalRecord(details.swapImpact)?.usd)),
    etaSeconds: seconds(details.timeEstimate),
    calls,
    providerRequestId: requestId,
    validUntil: null,
    trackingContext: {
      provider: 'relay',
      requestId,
      originChainId: slice.source.chainId,
      destinationChainId: slice.target.chainId,
    },
    // App fees accrue to the recipient's off-chain balance at Relay (in USDC) and are claimed through its API, not
    // paid on chain (docs.relay.link /features/app-fees).
    appFee:
      slice.appFeeBps > 0
        ? {
            paidAs: 'offchain_balance',
            bps: slice.appFeeBps,
            chainId: null,
            token: null,
            claim: 'POST /app-fees/{recipient}/claim',
          }
        : null,
  };
}

/**
 * Fee lines from `details.expandedPriceImpact` when Relay sends it: its entries are signed impacts on the output
 * (negative = paid by the user), `execution` (destination gas plus the flat fee; origin gas only when Relay pays
 * it), `relay` (the platform fee), `app` (relay-kit packages/sdk/src/types/api.ts; relay-docs
 * references/api/api_core_concepts/fees.mdx). `swap` is not a fee here: it stays in the loss, as `swapImpact`.
 * `sponsored` is ignored: we never ask Relay to sponsor fees.
 *
 * The `fees` object is read only when `expandedPriceImpact` is absent: "The `fees` object is deprecated ... it only
 * reports Relay-related fees and does not reflect the full cost of a request" (same fees.mdx). Its `gas` is the
 * origin gas the wallet pays on top, which `expandedPriceImpact` leaves out.
 */
function relayFees(answer: JsonRecord, details: JsonRecord): ReturnType<typeof feeSummary> {
  const impact = optionalRecord(details.expandedPriceImpact);
  if (impact !== undefined) {
    const paid = (key: string): number | null => {
      const value = usd(optionalRecord(impact[key])?.usd);
      return value === null ? null : -value;
    };
    return feeSummary([
      { kind: 'gas', usd: paid('execution') },
      { kind: 'provider', usd: paid('relay') },
      { kind: 'app', usd: paid('app') },
    ]);
  }
  const fees = optionalRecord(answer.fees);
  return feeSummary([
    { kind: 'gas', usd: usd(optionalRecord(fees?.gas)?.amountUsd) },
    { kind: 'provider', usd: usd(optionalRecord(fees?.relayer)?.amountUsd) },
    { kind: 'app', usd: usd(optionalRecord(fees?.app)?.amountUsd) },
  ]);
}
