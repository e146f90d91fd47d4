import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderQuote } from '../provider-quote';
import { type QuotedRefundTerms } from '../provider-quote';
import { baseUnits, isRecord, optionalText, record, seconds } from '../response/json-fields';
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
      ...acrossRefundTerms(answer.refundPolicy),
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

/**
 * The answer's `refundPolicy` (docs.across.to /introduction/refunds.mdx: "Every quote carries a `refundPolicy`,
 * discriminated by `supported`"): `{supported: true, token, refundAddress, expectedRefundTimeMs}` (an indicative
 * estimate, measured from `originValidUntil`), or `{supported: false, reason: "irreversible_rail", message}` (a rail
 * with no refund, such as CCTP: the funds always go through; an unknown reason is treated the same way). Answers
 * without it (the Swap API before it, our fixtures from across-protocol/frontend bdcf46ce) give no terms. `refundTo`
 * (every token, chain and address a refund could arrive in) is advisory by Across's own word and not read: the refund
 * itself is read from the chain.
 */
export function acrossRefundTerms(policy: unknown): QuotedRefundTerms {
  if (!isRecord(policy)) return {};
  if (policy.supported === false) {
    return {
      refundUnsupported:
        typeof policy.reason === 'string' && policy.reason !== '' ? policy.reason : 'unsupported',
    };
  }
  const ms = policy.expectedRefundTimeMs;
  return policy.supported === true && typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0
    ? { refundWindowMs: ms }
    : {};
}
