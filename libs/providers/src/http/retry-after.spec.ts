import { retryAfterMs } from './retry-after';

describe('retryAfterMs (RFC 9110 §10.2.3)', () => {
  const now = Date.parse('2026-08-24T10:00:00Z');

  it.each<[string | null, number | null]>([
    [null, null],
    ['0', 0],
    ['7', 7000],
    [' 30 ', 30_000],
    ['Mon, 24 Aug 2026 10:00:12 GMT', 12_000],
    ['Mon, 24 Aug 2026 09:59:00 GMT', 0],
    ['1.5', null],
    ['-3', null],
    ['soon', null],
    ['90000000', null],
  ])('%j → %j', (header, expected) => {
    expect(retryAfterMs(header, now)).toBe(expected);
  });
});
