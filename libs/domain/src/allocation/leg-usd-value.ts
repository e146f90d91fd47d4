import { type AllocationLeg } from './allocation.types';
import { formatRaw } from './format-raw';
import { fractionDigits, parseDecimal } from './parse-decimal';

/** Exact sum of decimal strings; null when any is null, because a partial total would understate the value. */
export function sumUsdValues(values: readonly (string | null)[]): string | null {
  if (values.some((v) => v === null)) return null;
  const present = values.filter((v): v is string => v !== null);
  const decimals = present.reduce((most, v) => Math.max(most, fractionDigits(v)), 0);
  return formatRaw(
    present.reduce((sum, v) => sum + parseDecimal(v, decimals), 0n),
    decimals,
  );
}

/** The USD value a leg carries: the sum of its slices' USD values ("0" for a leg without slices). */
export function legUsdValue(leg: AllocationLeg): string | null {
  return sumUsdValues(leg.slices.map((slice) => slice.usdValue));
}
