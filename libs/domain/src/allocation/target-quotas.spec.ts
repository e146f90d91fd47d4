import { percentUnits, targetQuotas } from './target-quotas';

const DOLLAR = 10n ** 18n;

describe('targetQuotas', () => {
  it('converts percentages with up to six decimals exactly (1% = 10^6 units)', () => {
    expect(percentUnits(33.33)).toBe(33_330_000n);
    expect(percentUnits(12.345678)).toBe(12_345_678n);
    expect(percentUnits(100)).toBe(100_000_000n);
  });

  it('given 33.33/33.33/33.34 of $100, then quotas are exact', () => {
    expect(targetQuotas(100n * DOLLAR, [33.33, 33.33, 33.34])).toEqual([
      33_330_000_000_000_000_000n,
      33_330_000_000_000_000_000n,
      33_340_000_000_000_000_000n,
    ]);
  });

  it('given a portfolio that does not divide evenly, then the last target takes the remainder', () => {
    expect(targetQuotas(100n, [33.33, 33.33, 33.34])).toEqual([33n, 33n, 34n]);
    expect(targetQuotas(1n, [50, 50])).toEqual([0n, 1n]);
  });

  it('given percentages that miss 100 by less than 1e-9, then quotas still sum to the portfolio', () => {
    const percents = [33.333333333, 33.333333333, 33.333333334];
    const quotas = targetQuotas(10n ** 30n, percents);
    expect(quotas.reduce((a, b) => a + b, 0n)).toBe(10n ** 30n);
    // 3 × 33333333 units: each share is exactly a third.
    expect(quotas[0]).toBe(333_333_333_333_333_333_333_333_333_333n);
  });
});
