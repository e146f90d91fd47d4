import { TOKENS, target } from './allocation.fixture';
import { type AllocationSlice } from './allocation.types';
import { legUsdValue, sumUsdValues } from './leg-usd-value';

describe('sumUsdValues', () => {
  it('adds decimal strings exactly', () => {
    expect(sumUsdValues(['0.1', '0.2'])).toBe('0.3');
    expect(sumUsdValues(['999.999999999999999', '0.000000000000001', '5'])).toBe('1005');
    expect(sumUsdValues([])).toBe('0');
  });

  it('is null when any value is unknown', () => {
    expect(sumUsdValues(['1', null])).toBeNull();
  });
});

describe('legUsdValue', () => {
  it('sums the USD values of the leg slices', () => {
    const slice = (usdValue: string | null) => ({ usdValue }) as AllocationSlice;
    const leg = { target: target('t0', TOKENS.usdcArb), slices: [slice('1.25'), slice('2.75')] };
    expect(legUsdValue(leg)).toBe('4');
    expect(legUsdValue({ ...leg, slices: [] })).toBe('0');
  });
});
