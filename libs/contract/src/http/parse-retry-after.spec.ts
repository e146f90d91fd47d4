import { parseRetryAfter } from './parse-retry-after';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter (RFC 9110 §10.2.3)', () => {
  it.each<[string | null | undefined, number | null]>([
    ['7', 7000],
    [' 120 ', 120_000],
    ['0', 0],
    ['90000000', 90_000_000_000],
    ['Thu, 01 Jan 2026 00:02:00 GMT', 120_000],
    [new Date(NOW + 3000).toUTCString(), 3000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    [undefined, null],
    [null, null],
    ['', null],
    ['-1', null],
    ['1.5', null],
    ['1234567890', null],
    ['2026-01-01T00:02:00Z', null],
    ['Thu, 01 Jan 2026 00:02:00 CET', null],
    ['Thu, 41 Jan 2026 00:02:00 GMT', null],
    ['soon', null],
  ])('reads %p as %p ms', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});
