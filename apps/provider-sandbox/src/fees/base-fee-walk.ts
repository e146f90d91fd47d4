/**
 * The walk's largest fall from one block to the next is 1/16 and its largest rise 1/32 (EIP-1559 allows 1/8 either
 * way), so that a wallet's usual margin (viem: 1.2 × the latest base fee) covers the next block even when anvil
 * mined one on its own, 12.5% lower, before the keeper set it (1.03125 / 0.875 < 1.2). anvil rejects at once a
 * transaction whose fee cap is below the next block's base fee, where a real node would hold it.
 */
const MAX_FALL_DENOMINATOR = 16n;
const MAX_RISE_DENOMINATOR = 32n;
/** Rises are half the size of falls, so twice as likely: the walk has no drift. */
const RISE_ODDS = 2 / 3;

/**
 * The next block's base fee: the previous one moved by `random` (in [0, 1)) within one step (rise or fall), kept
 * within `[min, max]`, but never more than one step from the previous one (a previous fee outside the band comes
 * back a step a block).
 */
export function nextBaseFee(previous: bigint, random: number, band: { min: bigint; max: bigint }): bigint {
  const rise = previous / MAX_RISE_DENOMINATOR;
  const fall = previous / MAX_FALL_DENOMINATOR;
  const moved =
    random < RISE_ODDS
      ? previous + (rise * BigInt(Math.floor((random / RISE_ODDS) * 1000))) / 1000n
      : previous - (fall * BigInt(Math.floor(((random - RISE_ODDS) / (1 - RISE_ODDS)) * 1000))) / 1000n;
  const inBand = moved < band.min ? band.min : moved > band.max ? band.max : moved;
  return clamp(inBand, previous - fall, previous + rise);
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value;
}

/** mulberry32: a small seeded generator, so that a run's fee walk can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
