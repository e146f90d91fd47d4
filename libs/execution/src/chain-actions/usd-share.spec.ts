import { usdShare } from './usd-share';

describe('usdShare', () => {
  it.each([
    ['the whole source', '1500.25', 10n, 10n, '1500.25'],
    ['the whole source, normalized', '1500.250', 10n, 10n, '1500.25'],
    ['an integer value', '3000', 1n, 1n, '3000'],
    ['a half', '3000', 1n, 2n, '1500'],
    ['a third, rounded down at 18 digits', '1', 1n, 3n, '0.333333333333333333'],
    ['more than 18 fraction digits kept', '0.0000000000000000000003', 1n, 3n, '0.0000000000000000000001'],
    ['a share below one cent', '1', 1n, 1000n, '0.001'],
  ])('gives %s', (_, usd, part, whole, expected) => {
    expect(usdShare(usd, part, whole)).toBe(expected);
  });

  it.each([
    ['no usdValue', undefined],
    ['a malformed usdValue', '1e3'],
    ['a negative usdValue', '-1'],
  ])('is null for %s', (_, usd) => {
    expect(usdShare(usd, 1n, 1n)).toBeNull();
  });
});
