const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value);
}

/** Significant fraction digits: trailing zeros do not count, so "1.50" needs 1. */
export function fractionDigits(value: string): number {
  return splitDecimal(value).fraction.length;
}

/**
 * The exact scaled integer of a non-negative decimal string: parseDecimal("1.5", 18) = 1.5 × 10^18. Refuses a
 * value with more significant fraction digits than `decimals` rather than silently truncating it.
 */
export function parseDecimal(value: string, decimals: number): bigint {
  const { whole, fraction } = splitDecimal(value);
  if (fraction.length > decimals) {
    throw new RangeError(`${value} has more than ${decimals} fraction digits`);
  }
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

function splitDecimal(value: string): { whole: string; fraction: string } {
  const match = DECIMAL.exec(value);
  if (match === null) throw new RangeError(`not a decimal string: ${JSON.stringify(value)}`);
  return { whole: match[1] ?? '0', fraction: (match[2] ?? '').replace(/0+$/, '') };
}

/** The canonical spelling of a decimal string ("01" is refused, "1.50" becomes "1.5"). */
export function normalizeDecimal(value: string): string {
  const { whole, fraction } = splitDecimal(value);
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
