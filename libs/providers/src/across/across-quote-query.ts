import { type QuoteSlice } from '../provider-adapter.port';
import { bpsToFraction } from './bps-to-fraction';

/**
 * Query of `GET /swap/approval` (reference/providers.md §2.2), in a stable order.
 *
 * `refundOnOrigin` is left out on purpose, so Across applies its own default (across-protocol/frontend
 * api/swap/_utils.ts handleBaseSwapQueryParams): origin for a bridgeable output (B2B, A2B), destination otherwise
 * (B2A, A2A). Neither fixed value fits every route:
 * - `false` on a same-asset route is refused: "Query param 'refundOnOrigin' must be 'true' for same-asset bridge
 *   swaps" (api/_dexes/cross-swap-service.ts), and we cannot tell a bridgeable output before Across does.
 * - `true` on a destination-swap route makes the MulticallHandler's fallback the zero address
 *   (api/_dexes/utils.ts getAcrossFallbackRecipient), so a failing swap leaves the deposit unfilled until its fill
 *   deadline and a later settlement bundle pays it back on the origin: hours, past the tracker's limit.
 * With the default a failed destination swap pays the bridged token at once to `refundAddress` on the destination
 * (status `filled`, `actionsSucceeded: false`), which the tracker reads as a delivery in another token. Origin
 * refunds (status `refunded`) go to the deposit's depositor, which Across sets to `refundAddress` under
 * `refundOnOrigin` (api/_dexes/utils.ts extractDepositDataStruct). So `refundAddress` (our refundTo) is always sent.
 */
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
