import { nextBaseFee, seededRandom } from './base-fee-walk';

describe('nextBaseFee', () => {
  const band = { min: 1000n, max: 100_000n };

  it('rises at most 1/32 and falls at most 1/16 a block (EIP-1559 allows 1/8)', () => {
    expect(nextBaseFee(8000n, 0, band)).toBe(8000n);
    expect(nextBaseFee(8000n, 0.6666, band)).toBe(8249n);
    expect(nextBaseFee(8000n, 0.9999, band)).toBe(7501n);
  });

  it('stays within the band', () => {
    expect(nextBaseFee(1000n, 0.9999, band)).toBe(1000n);
    expect(nextBaseFee(100_000n, 0.6, band)).toBe(100_000n);
  });

  it('brings a fee outside the band back one step a block, never jumping further', () => {
    expect(nextBaseFee(800n, 0.9999, band)).toBe(825n);
    expect(nextBaseFee(160_000n, 0, band)).toBe(150_000n);
  });
});

describe('seededRandom', () => {
  it('replays the same walk from the same seed', () => {
    const walk = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 5 }, () => random());
    };
    expect(walk(7)).toEqual(walk(7));
    expect(walk(7)).not.toEqual(walk(8));
    expect(walk(7).every((r) => r >= 0 && r < 1)).toBe(true);
  });
});
