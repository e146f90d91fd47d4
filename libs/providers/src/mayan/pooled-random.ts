import { randomFillSync } from 'node:crypto';
import { type Hex } from 'viem';

/** 128 orders' worth. */
const POOL_BYTES = 32 * 128;

/**
 * 32 bytes at a time from node:crypto's CSPRNG, filled 4 KiB at once: one getrandom call per 128 orders rather than
 * one per order (the per-order call was 1.6 % of the service's CPU under 150-slice quotes, tools/bench/results/
 * profiles.md "Quote path"). Each byte is handed out once; the format is `toHex(randomBytes(32))`'s.
 */
export function pooledRandomBytes32(): () => Hex {
  const pool = Buffer.alloc(POOL_BYTES);
  let offset = POOL_BYTES;
  return () => {
    if (offset === POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    const hex = pool.toString('hex', offset, offset + 32);
    offset += 32;
    return `0x${hex}`;
  };
}
