/**
 * The most shards one instance should hold: rounded up, so that the live instances together can always cover
 * every shard (with uneven counts some hold one fewer, and an instance may get none: 4 shards over 3 gives 2, 2, 0).
 */
export function fairShare(shardCount: number, liveMemberCount: number): number {
  return Math.ceil(shardCount / Math.max(1, liveMemberCount));
}
