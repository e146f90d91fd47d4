/**
 * The caller built a slice no provider request can be made from (a fee without a recipient, slippage out of
 * range). A programming error on our side, not provider behaviour, so it is thrown rather than returned.
 */
export class InvalidQuoteSliceError extends Error {
  override readonly name = 'InvalidQuoteSliceError';
}
