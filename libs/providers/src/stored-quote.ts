import { type Address } from 'viem';
import { type QuoteSlice } from './provider-adapter.port';
import { type ProviderQuote } from './provider-quote';
import { serializeProviderCall } from './serialize-provider-call';

/** A value as JSON carries it: raw amounts (bigint) as base-10 strings, addresses as plain strings. */
type Stored<T> = T extends bigint
  ? string
  : T extends `0x${string}`
    ? string
    : T extends object
      ? { [K in keyof T]: Stored<T[K]> }
      : T;

/** A provider quote request as an intent session stores it (the domain's QuotedSliceParams has this shape). */
export type StoredQuoteSlice = Stored<QuoteSlice>;

/**
 * What an intent session keeps of a provider's quote for prepare (the calls verbatim, amounts as strings), written
 * when the quote is taken and again when prepare renews a stale one: one mapping for both.
 */
export function storedQuote(q: ProviderQuote) {
  return {
    provider: q.provider,
    calls: q.calls.map(serializeProviderCall),
    providerRequestId: q.providerRequestId,
    trackingContext: { ...q.trackingContext },
    expectedOutputRaw: q.expectedOutputRaw.toString(),
    minimumOutputRaw: q.minimumOutputRaw.toString(),
    validUntil: q.validUntil,
    etaSeconds: q.etaSeconds,
    appFee: q.appFee === null ? null : { ...q.appFee },
    feeUsd: q.feeUsd,
    feeBreakdown: q.feeBreakdown.map((line) => ({ ...line })),
  };
}

/** The request a quote was asked with, as stored (so prepare can ask again with the very same parameters). */
export function storedQuoteSlice(asked: QuoteSlice): StoredQuoteSlice {
  return { ...asked, source: { ...asked.source, amount: asked.source.amount.toString() } };
}

/** A stored request back as the adapter port takes it (addresses as stored, checked when first asked). */
export function quoteSliceFromStored(stored: StoredQuoteSlice): QuoteSlice {
  return {
    ...stored,
    wallet: stored.wallet as Address,
    recipient: stored.recipient as Address,
    refundTo: stored.refundTo as Address,
    appFeeRecipient: stored.appFeeRecipient as Address | null,
    source: { ...stored.source, token: stored.source.token as Address, amount: BigInt(stored.source.amount) },
    target: { ...stored.target, token: stored.target.token as Address },
  };
}
