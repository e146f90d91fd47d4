/**
 * Percentages become integers once, here: 1% = 10^6 units, so 100% = 10^8 units and any percentage with up to
 * six decimals (33.33, 12.345678) converts exactly. All later math is bigint.
 */
export const PERCENT_UNITS_PER_PERCENT = 1_000_000;

export function percentUnits(percent: number): bigint {
  const units = Math.round(percent * PERCENT_UNITS_PER_PERCENT);
  if (!Number.isSafeInteger(units) || units < 0) throw new RangeError(`not a percentage: ${percent}`);
  return BigInt(units);
}

/**
 * Splits the portfolio (scaled USD) into one quota per target, in target order. Quotas sum exactly to the
 * portfolio: each is floored and the last target takes the remainder. Shares are divided by the actual total
 * of units rather than by 10^8 because validation lets the percentages miss 100 by up to 1e-9, and rounding each
 * one may move the total by a unit; dividing by the real total keeps every quota proportional to its share.
 */
export function targetQuotas(portfolio: bigint, percents: readonly number[]): bigint[] {
  const units = percents.map(percentUnits);
  const total = units.reduce((sum, u) => sum + u, 0n);
  if (total === 0n) throw new RangeError('allocation percentages total 0');
  let left = portfolio;
  return units.map((u, i) => {
    const quota = i === units.length - 1 ? left : (portfolio * u) / total;
    left -= quota;
    return quota;
  });
}
