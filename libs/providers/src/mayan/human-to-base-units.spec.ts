import { humanToBaseUnits } from './human-to-base-units';

describe('humanToBaseUnits', () => {
  it.each<[unknown, number, bigint | null]>([
    ['99.9215679', 6, 99921567n],
    ['100', 6, 100000000n],
    ['0.1', 18, 100000000000000000n],
    ['1.000000000000000001', 18, 1000000000000000001n],
    ['123456789012345678.123456789012345678', 18, 123456789012345678123456789012345678n],
    [12.5, 6, 12500000n],
    ['0.0000001', 6, 0n],
    [1e-7, 6, null],
    ['-1', 6, null],
    ['1.', 6, null],
    ['', 6, null],
    [null, 6, null],
    ['12,5', 6, null],
  ])('%j with %s decimals → %s', (value, decimals, expected) => {
    expect(humanToBaseUnits(value, decimals)).toBe(expected);
  });
});
