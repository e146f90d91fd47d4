/** Fixed-point digits of the share: the allocation's own minimum USD scale (10^18 units per dollar). */
const MIN_DIGITS = 18;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * `usdValue × part / whole`, rounded down, as a decimal string without trailing zeros: a slice's share of its
 * source's USD value. null when the source has no (readable) USD value.
 */
export function usdShare(usdValue: string | undefined, part: bigint, whole: bigint): string | null {
  const match = usdValue === undefined ? null : DECIMAL.exec(usdValue);
  if (match === null || whole <= 0n) return null;
  const fraction = match[2] ?? '';
  const digits = Math.max(MIN_DIGITS, fraction.length);
  const units = BigInt(match[1] + fraction.padEnd(digits, '0'));
  const share = ((units * part) / whole).toString().padStart(digits + 1, '0');
  const wholePart = share.slice(0, share.length - digits).replace(/^0+(?=\d)/, '');
  const fractionPart = share.slice(share.length - digits).replace(/0+$/, '');
  return fractionPart === '' ? wholePart : `${wholePart}.${fractionPart}`;
}
