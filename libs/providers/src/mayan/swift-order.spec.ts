import { MalformedResponseError } from '../response/malformed-response.error';
import { toSwiftDecimals } from './swift-order';

describe('toSwiftDecimals', () => {
  it.each<[bigint, number, bigint]>([
    [99412440n, 6, 99412440n],
    [12345678n, 8, 12345678n],
    [49707842845000000n, 18, 4970784n],
    [49707842899999999n, 18, 4970784n],
    [1_000000000n, 9, 1_00000000n],
    [5n, 0, 5n],
  ])('%s at %s decimals → %s (floored to at most 8)', (raw, decimals, expected) => {
    expect(toSwiftDecimals(raw, decimals)).toBe(expected);
  });

  it('refuses an amount that does not fit uint64', () => {
    expect(() => toSwiftDecimals(2n ** 64n, 6)).toThrow(MalformedResponseError);
  });
});
