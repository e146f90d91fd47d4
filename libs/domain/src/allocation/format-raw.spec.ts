import { formatRaw } from './format-raw';

describe('formatRaw', () => {
  it.each([
    [0n, 18, '0'],
    [0n, 0, '0'],
    [1n, 18, '0.000000000000000001'],
    [1_000_000_000_000_000_000n, 18, '1'],
    [1_500_000n, 6, '1.5'],
    [123_450_000n, 6, '123.45'],
    [42n, 0, '42'],
    [1000n, 0, '1000'],
    [-1_500_000n, 6, '-1.5'],
  ])('formats %p at %p decimals as %p', (raw, decimals, expected) => {
    expect(formatRaw(raw, decimals)).toBe(expected);
  });

  it('formats 1 raw unit at 255 decimals without an exponent', () => {
    expect(formatRaw(1n, 255)).toBe(`0.${'0'.repeat(254)}1`);
  });

  it('formats 2^256-1 exactly, as an integer and as an 18-decimals amount', () => {
    const max = 2n ** 256n - 1n;
    expect(formatRaw(max, 0)).toBe(
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    );
    expect(formatRaw(max, 18)).toBe(
      '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    );
    expect(formatRaw(max, 255)).toBe(
      `0.${'0'.repeat(255 - 78)}115792089237316195423570985008687907853269984665640564039457584007913129639935`,
    );
  });

  it('refuses negative or fractional decimals', () => {
    expect(() => formatRaw(1n, -1)).toThrow(RangeError);
    expect(() => formatRaw(1n, 1.5)).toThrow(RangeError);
  });
});
