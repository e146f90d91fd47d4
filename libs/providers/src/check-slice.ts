import { InvalidQuoteSliceError } from './invalid-quote-slice.error';
import { type QuoteSlice, type RoutableProvider } from './provider-adapter.port';
import { type QuoteResult } from './provider-quote';
import { quoteFailure } from './failures/quote-failure';

/**
 * Decided before any HTTP call: a slice the provider cannot take is a failure (same chain: these adapters only
 * bridge), a slice nobody could quote is our bug and throws.
 */
export function checkSlice(
  provider: RoutableProvider,
  slice: QuoteSlice,
  options: { feeRecipientRequired: boolean },
): QuoteResult | null {
  if (!Number.isInteger(slice.slippageBps) || slice.slippageBps < 1 || slice.slippageBps > 10000)
    throw new InvalidQuoteSliceError(`slice ${slice.sliceId}: slippageBps must be an integer in 1..10000`);
  if (!Number.isInteger(slice.appFeeBps) || slice.appFeeBps < 0 || slice.appFeeBps > 10000)
    throw new InvalidQuoteSliceError(`slice ${slice.sliceId}: appFeeBps must be an integer in 0..10000`);
  if (slice.source.amount <= 0n)
    throw new InvalidQuoteSliceError(`slice ${slice.sliceId}: source.amount must be positive`);
  if (options.feeRecipientRequired && slice.appFeeBps > 0 && slice.appFeeRecipient === null)
    throw new InvalidQuoteSliceError(
      `slice ${slice.sliceId}: appFeeRecipient is required when appFeeBps > 0`,
    );
  if (slice.source.chainId === slice.target.chainId)
    return quoteFailure(provider, 'same_chain_unsupported', `${provider} is used for cross-chain legs only`);
  return null;
}
