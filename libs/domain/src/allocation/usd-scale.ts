import { fractionDigits } from './parse-decimal';

/** At least 10^18 units per dollar, matching the precision of the most common token decimals. */
export const MIN_USD_DECIMALS = 18;

/**
 * The USD fixed-point scale for a set of values: 10^max(18, most fraction digits among them) units per dollar.
 * Widening past 18 for a value like "0.0000000000000000000001" keeps parsing exact, so a positive USD value
 * never truncates to zero and every split stays exact.
 */
export function usdDecimalsFor(values: readonly (string | null)[]): number {
  return values.reduce(
    (most, value) => (value === null ? most : Math.max(most, fractionDigits(value))),
    MIN_USD_DECIMALS,
  );
}
