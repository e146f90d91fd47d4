import { MalformedResponseError } from '../response/malformed-response.error';
import { swiftFractionalAmount } from './swift-fractional-amount';

// Expected values computed with swap-sdk src/utils.ts getAmountOfFractionalAmount's own steps:
// Number(amount).toFixed(min(8, decimals) + 1), cut to min(8, decimals) decimals, parseUnits(…, decimals).
describe('swiftFractionalAmount (swap-sdk getAmountOfFractionalAmount)', () => {
  it.each<[number | string, number, bigint]>([
    [99.412, 6, 99412000n],
    [99.41244, 6, 99412440n],
    [0.04970784, 8, 4970784n],
    // toFixed(9) rounds the ninth decimal before the cut: 0.049707849 → "0.049707849" → 0.04970784.
    [0.049707849, 8, 4970784n],
    // …and may round up across the cut: 0.0497078499999 → toFixed(9) "0.049707850" → 0.04970785.
    [0.0497078499999, 8, 4970785n],
    [0.05, 18, 50000000000000000n],
    [0.123456789123, 18, 123456780000000000n],
    ['12.5', 6, 12500000n],
    [0, 8, 0n],
    [7, 0, 7n],
  ])('%s at %s decimals → %s', (amount, decimals, expected) => {
    expect(swiftFractionalAmount(amount, decimals, 'minAmountOut')).toBe(expected);
  });

  it.each<[string, unknown]>([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['not a number', 'abc'],
    ['an object', { amount: 1 }],
    ['negative', -1],
    ['infinite', Infinity],
    ['past toFixed range', 1e21],
  ])('%s → MalformedResponseError', (_label, amount) => {
    expect(() => swiftFractionalAmount(amount, 6, 'minAmountOut')).toThrow(MalformedResponseError);
  });
});
