import { parseRetryAfter } from './parse-retry-after';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each<[string | undefined, number | null]>([
    ['7', 7000],
    [' 120 ', 120_000],
    ['0', 0],
    ['Thu, 01 Jan 2026 00:02:00 GMT', 120_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    [undefined, null],
    ['', null],
    ['-1', null],
    ['1.5', null],
    ['2026-01-01T00:02:00Z', null],
    ['Thu, 01 Jan 2026 00:02:00 CET', null],
    ['soon', null],
  ])('reads %p as %p ms', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});
