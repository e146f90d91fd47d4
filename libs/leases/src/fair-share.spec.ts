import { fairShare } from './fair-share';

describe('fairShare', () => {
  it.each([
    [8, 1, 8],
    [8, 2, 4],
    [8, 3, 3],
    [8, 8, 1],
    [8, 20, 1],
    [4, 3, 2],
    [1, 5, 1],
  ])('%i shards over %i live instances: at most %i each', (shards, live, share) => {
    expect(fairShare(shards, live)).toBe(share);
  });

  it('lets the live instances together cover every shard', () => {
    const short: string[] = [];
    for (let shards = 1; shards <= 64; shards++) {
      for (let live = 1; live <= 70; live++) {
        if (fairShare(shards, live) * live < shards) short.push(`${shards} over ${live}`);
      }
    }
    expect(short).toEqual([]);
  });

  it('treats no live instance (not even the caller yet) as one', () => {
    expect(fairShare(8, 0)).toBe(8);
  });
});
