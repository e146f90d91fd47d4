import { formatRaw } from './format-raw';
import { fractionDigits, isDecimal, normalizeDecimal, parseDecimal } from './parse-decimal';

describe('parseDecimal', () => {
  it.each([
    ['0', 18, 0n],
    ['1', 0, 1n],
    ['1.5', 6, 1_500_000n],
    ['1.50', 1, 15n],
    ['0.000000000000000001', 18, 1n],
    ['123.456', 18, 123_456_000_000_000_000_000n],
  ])('scales %p to %p decimals', (value, decimals, expected) => {
    expect(parseDecimal(value, decimals)).toBe(expected);
  });

  it('refuses to truncate significant fraction digits', () => {
    expect(() => parseDecimal('0.0000001', 6)).toThrow(RangeError);
  });

  it.each(['', '.5', '1.', '01', '-1', '1e3', ' 1'])('refuses %p', (value) => {
    expect(isDecimal(value)).toBe(false);
    expect(() => parseDecimal(value, 18)).toThrow(RangeError);
  });

  it('round-trips with formatRaw', () => {
    const raw = 2n ** 256n - 1n;
    expect(parseDecimal(formatRaw(raw, 36), 36)).toBe(raw);
  });
});

describe('fractionDigits / normalizeDecimal', () => {
  it('ignores trailing zeros', () => {
    expect(fractionDigits('1.2300')).toBe(2);
    expect(fractionDigits('7')).toBe(0);
    expect(fractionDigits(`0.${'0'.repeat(40)}`)).toBe(0);
    expect(normalizeDecimal('1.2300')).toBe('1.23');
    expect(normalizeDecimal('5.000')).toBe('5');
    expect(normalizeDecimal('0')).toBe('0');
  });
});
