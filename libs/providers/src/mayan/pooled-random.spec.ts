import { pooledRandomBytes32 } from './pooled-random';

describe('pooledRandomBytes32', () => {
  it('hands out 32-byte lower-case hex, never the same twice, across many refills of the pool', () => {
    const next = pooledRandomBytes32();
    const drawn = Array.from({ length: 1000 }, next);
    for (const value of drawn) expect(value).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it('gives two adapters independent streams', () => {
    const a = pooledRandomBytes32();
    const b = pooledRandomBytes32();
    const fromA = new Set(Array.from({ length: 300 }, a));
    expect(Array.from({ length: 300 }, b).some((value) => fromA.has(value))).toBe(false);
  });
});
