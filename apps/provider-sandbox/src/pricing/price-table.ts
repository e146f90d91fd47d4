/**
 * USD price per token symbol in integer micro-USD (1 USD = 1_000_000), so every conversion between tokens of
 * different decimals stays in bigint arithmetic.
 */
export type PriceTable = Readonly<Record<string, bigint>>;

export const MICRO_USD_PER_USD = 1_000_000n;

export const DEFAULT_PRICES: PriceTable = {
  USDC: 1_000_000n,
  USDT: 1_000_000n,
  WETH: 3_000_000_000n,
  ETH: 3_000_000_000n,
};

/** The extra (benchmark) tokens are dollar tokens: each priced like USDC. */
export function extraTokenPrices(symbols: readonly string[]): PriceTable {
  return Object.fromEntries(symbols.map((symbol) => [symbol, DEFAULT_PRICES.USDC]));
}
