import { shardOf } from './shard-of';

describe('shardOf', () => {
  it('is the first 4 bytes of sha256 modulo the count (stable across processes and releases)', () => {
    // sha256("at_1") starts with 0xc786e211
    expect(shardOf('at_1', 1 << 30)).toBe(0xc786e211 % (1 << 30));
    expect(shardOf('at_1', 16)).toBe(0xc786e211 % 16);
  });

  it('gives the same shard for the same key every time', () => {
    expect(shardOf('attempt-42', 16)).toBe(shardOf('attempt-42', 16));
  });

  it('stays in range', () => {
    const outOfRange: string[] = [];
    for (const count of [1, 2, 7, 16, 1000]) {
      for (let i = 0; i < 200; i++) {
        const shard = shardOf(`at_${i}`, count);
        if (!(Number.isInteger(shard) && shard >= 0 && shard < count)) outOfRange.push(`at_${i} → ${shard}`);
      }
    }
    expect(outOfRange).toEqual([]);
  });

  it('spreads keys evenly', () => {
    const counts = new Array<number>(8).fill(0);
    for (let i = 0; i < 8_000; i++) counts[shardOf(`at_${i}`, 8)]++;
    for (const count of counts) expect(Math.abs(count - 1_000)).toBeLessThan(150);
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses a shard count of %p', (count) => {
    expect(() => shardOf('at_1', count)).toThrow(RangeError);
  });
});
