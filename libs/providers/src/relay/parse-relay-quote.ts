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
  };
}

/**
 * `fees` (origin gas, relayer = destination gas + service, app) when present; the docs call it deprecated, so
 * fall back to `expandedPriceImpact`, whose entries are signed impacts (negative = paid by the user).
 */
function relayFees(answer: JsonRecord, details: JsonRecord): ReturnType<typeof feeSummary> {
  const fees = optionalRecord(answer.fees);
  const fromFees = feeSummary([
    { kind: 'gas', usd: usd(optionalRecord(fees?.gas)?.amountUsd) },
    { kind: 'provider', usd: usd(optionalRecord(fees?.relayer)?.amountUsd) },
    { kind: 'app', usd: usd(optionalRecord(fees?.app)?.amountUsd) },
  ]);
  if (fromFees.feeUsd !== null) return fromFees;
  const impact = optionalRecord(details.expandedPriceImpact);
  const paid = (key: string): number | null => {
    const value = usd(optionalRecord(impact?.[key])?.usd);
    return value === null ? null : -value;
  };
  return feeSummary([
    { kind: 'gas', usd: paid('execution') },
    { kind: 'provider', usd: paid('relay') },
    { kind: 'app', usd: paid('app') },
  ]);
}
