import { createHash } from 'node:crypto';

/** The shard a work item belongs to: the first 4 bytes of sha256(key) as an unsigned integer, modulo the count. */
export function shardOf(key: string, shardCount: number): number {
  if (!Number.isInteger(shardCount) || shardCount < 1) {
    throw new RangeError(`shardOf: shardCount must be a positive integer, got ${shardCount}`);
  }
  return createHash('sha256').update(key, 'utf8').digest().readUInt32BE(0) % shardCount;
}
