/** The SpokePool's `depositQuoteTimeBuffer`, which Across's API assumes: a quote timestamp is good for an hour. */
const DEPOSIT_QUOTE_TIME_BUFFER_SECONDS = 3600;
/** Explicit expiry of a quote with a destination swap: 30 s, 60 s when that swap runs on Ethereum mainnet. */
const DESTINATION_SWAP_EXPIRY_SECONDS = (destinationChainId: number) => (destinationChainId === 1 ? 60 : 30);

/**
 * A quote's `quoteExpiryTimestamp` and the `quoteTimestamp` its deposit carries, both in epoch seconds, as
 * across-protocol/frontend api/_quote-timestamp.ts computes them (getQuoteExpiryTimestamp, getQuoteTimestampArg):
 * - without a destination swap, the quote timestamp plus the one-hour buffer (the sandbox quotes at `now`, where
 *   Across uses the suggested-fees timestamp, a few blocks old);
 * - with one, now + 30 s (60 s on mainnet), and the deposit's quoteTimestamp is that expiry minus the buffer, so
 *   a deposit sent after it would be refused by the SpokePool (the sandbox's pool does not check;
 *   across-protocol/contracts contracts/spoke-pools/SpokePool.sol reverts InvalidQuoteTimestamp when
 *   `currentTime - quoteTimestamp > depositQuoteTimeBuffer`, 3600 in generated/constants.json QUOTE_TIME_BUFFER).
 * A destination swap is there only when the output is not a token Across bridges (acrossOutputBridgeable):
 * api/swap/_utils.ts passes `destinationSwapQuote?.tokenOut.chainId`, which an origin-swap (A2B) quote has not.
 */
export function acrossQuoteTiming(params: {
  nowSeconds: number;
  destinationSwap: boolean;
  destinationChainId: number;
}): { quoteTimestamp: number; quoteExpiryTimestamp: number } {
  if (!params.destinationSwap) {
    return {
      quoteTimestamp: params.nowSeconds,
      quoteExpiryTimestamp: params.nowSeconds + DEPOSIT_QUOTE_TIME_BUFFER_SECONDS,
    };
  }
  const quoteExpiryTimestamp = params.nowSeconds + DESTINATION_SWAP_EXPIRY_SECONDS(params.destinationChainId);
  return { quoteTimestamp: quoteExpiryTimestamp - DEPOSIT_QUOTE_TIME_BUFFER_SECONDS, quoteExpiryTimestamp };
}
