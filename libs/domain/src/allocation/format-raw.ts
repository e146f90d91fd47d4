/**
 * Renders raw base units as a decimal string in token units, like viem's formatUnits: no trailing fractional
 * zeros, no exponent, exact for any bigint (the spec allows 0 to 255 decimals and uint256 amounts).
 */
export function formatRaw(raw: bigint, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, not ${decimals}`);
  }
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, '0');
  const split = digits.length - decimals;
  const whole = digits.slice(0, split);
  const fraction = digits.slice(split).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
