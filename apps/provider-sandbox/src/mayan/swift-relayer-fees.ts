import { type ComputedQuote, usdValue } from '../pricing/compute-quote';
import { type PriceTable } from '../pricing/price-table';

/** Swift carries amounts with at most 8 decimals (swap-sdk src/utils.ts `getNormalizeFactor`). */
export const SWIFT_DECIMALS = 8;

/**
 * What an order pays its relayers if it is cancelled or refunded: the sandbox's own figures, in USD of the input
 * token. Mayan prices these per route and publishes no schedule.
 */
const CANCEL_FEE_MICRO_USD = 50_000n;
const REFUND_FEE_MICRO_USD = 100_000n;

export interface SwiftRelayerFees {
  /** In the input token's min(8, decimals) units, as the order and `cancelRelayerFee64` carry them. */
  cancel64: bigint;
  refund64: bigint;
  /** The refund fee in input base units (`refundRelayerFee`, human units, is derived from it). */
  refundIn: bigint;
  /** Both fees, in micro-USD: `clientRelayerFeeRefund`. */
  refundUsd: bigint;
  /** The input, normalised the same way: Swift refuses an order whose fees reach it (`FeesTooHigh`). */
  amountIn64: bigint;
}

export function normalizeToSwift(amount: bigint, decimals: number): bigint {
  return decimals > SWIFT_DECIMALS ? amount / 10n ** BigInt(decimals - SWIFT_DECIMALS) : amount;
}

/** The fees of a Swift quote, in the units the order carries them. */
export function swiftRelayerFees(quote: ComputedQuote, prices: PriceTable): SwiftRelayerFees {
  const { tokenIn } = quote;
  const price = prices[tokenIn.symbol];
  const scale = 10n ** BigInt(tokenIn.decimals);
  const inInput = (microUsd: bigint) => (microUsd * scale) / price;
  const cancelIn = inInput(CANCEL_FEE_MICRO_USD);
  const refundIn = inInput(REFUND_FEE_MICRO_USD);
  return {
    cancel64: normalizeToSwift(cancelIn, tokenIn.decimals),
    refund64: normalizeToSwift(refundIn, tokenIn.decimals),
    refundIn,
    refundUsd: usdValue(cancelIn + refundIn, tokenIn.decimals, price),
    amountIn64: normalizeToSwift(quote.amountIn, tokenIn.decimals),
  };
}
