/**
 * The input does not cover what Swift needs (its fees, or the relayer fees an order must be able to pay): Mayan's
 * `AMOUNT_TOO_SMALL`, with the least input that would do in human units.
 */
export class AmountTooSmallError extends Error {
  override readonly name = 'AmountTooSmallError';
  constructor(
    readonly minAmountIn: number,
    readonly symbol: string,
  ) {
    super(`Amount too small (min ~${minAmountIn} ${symbol})`);
  }
}
