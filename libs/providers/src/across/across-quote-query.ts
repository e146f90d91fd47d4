import { type QuoteSlice } from '../provider-adapter.port';
import { bpsToFraction } from './bps-to-fraction';

/** Query of `GET /swap/approval` (reference/providers.md §2.2), in a stable order. */
export function acrossQuoteQuery(
  slice: QuoteSlice,
  integratorId: string | null,
): Record<string, string | number | null> {
  const withFee = slice.appFeeBps > 0 && slice.appFeeRecipient !== null;
  return {
    tradeType: 'exactInput',
    amount: slice.source.amount.toString(),
    inputToken: slice.source.token,
    outputToken: slice.target.token,
    originChainId: slice.source.chainId,
    destinationChainId: slice.target.chainId,
    depositor: slice.wallet,
    recipient: slice.recipient,
    refundAddress: slice.refundTo,
    slippage: bpsToFraction(slice.slippageBps),
    appFee: withFee ? bpsToFraction(slice.appFeeBps) : null,
    appFeeRecipient: withFee ? slice.appFeeRecipient : null,
    integratorId,
  };
}
