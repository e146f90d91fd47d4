import { bpsToFraction } from './bps-to-fraction';

describe('bpsToFraction', () => {
  it.each([
    [1, '0.0001'],
    [7, '0.0007'],
    [10, '0.001'],
    [50, '0.005'],
    [125, '0.0125'],
    [5000, '0.5'],
    [10000, '1'],
  ])('%s bps → %s', (bps, fraction) => {
    expect(bpsToFraction(bps)).toBe(fraction);
  });
});
