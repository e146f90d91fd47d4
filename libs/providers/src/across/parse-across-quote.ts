import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderQuote } from '../provider-quote';
import { baseUnits, optionalText, record, seconds } from '../response/json-fields';
import { acrossCalls } from './across-calls';
import { acrossFees } from './across-fees';

/** A `GET /swap/approval` 200 answer as our quote (reference/providers.md §2.2). */
export function parseAcrossQuote(body: unknown, slice: QuoteSlice): ProviderQuote {
  const answer = record(body, 'body');
  return {
    provider: 'across',
    sliceId: slice.sliceId,
    // exactInput: both already net of the app fee.
    expectedOutputRaw: baseUnits(answer.expectedOutputAmount, 'expectedOutputAmount'),
    minimumOutputRaw: baseUnits(answer.minOutputAmount, 'minOutputAmount'),
    ...acrossFees(answer),
    etaSeconds: seconds(answer.expectedFillTime),
    calls: acrossCalls(answer, slice.source.chainId),
    providerRequestId: optionalText(answer.id),
    // 0 means "no expiry" in the server source (non-Across routes).
    validUntil:
      typeof answer.quoteExpiryTimestamp === 'number' && answer.quoteExpiryTimestamp > 0
        ? answer.quoteExpiryTimestamp * 1000
        : null,
    trackingContext: {
      provider: 'across',
      originChainId: slice.source.chainId,
      destinationChainId: slice.target.chainId,
    },
    // The MulticallHandler pays `appFee` to `appFeeRecipient` on the destination, in the output token, before the
    // rest reaches the recipient (across-protocol/frontend api/_dexes/utils.ts).
    appFee:
      slice.appFeeBps > 0
        ? {
            paidAs: 'destination_transfer',
            bps: slice.appFeeBps,
            chainId: slice.target.chainId,
            token: slice.target.token,
            claim: null,
          }
        : null,
  };
}
