import { type QuoteSlice } from '../provider-adapter.port';

/** Body of `POST /quote/v2` (reference/providers.md §1.2). */
export function relayQuoteRequest(slice: QuoteSlice): Record<string, unknown> {
  return {
    user: slice.wallet,
    recipient: slice.recipient,
    refundTo: slice.refundTo,
    originChainId: slice.source.chainId,
    destinationChainId: slice.target.chainId,
    originCurrency: slice.source.token,
    destinationCurrency: slice.target.token,
    amount: slice.source.amount.toString(),
    tradeType: 'EXACT_INPUT',
    slippageTolerance: String(slice.slippageBps),
    ...(slice.appFeeBps > 0 && slice.appFeeRecipient !== null
      ? { appFees: [{ recipient: slice.appFeeRecipient, fee: String(slice.appFeeBps) }] }
      : {}),
  };
}
