import { InvalidPositionError } from './invalid-position.error';
import { type Position } from './event-store.port';

/**
 * Orders two positions of the same store: negative if `a` is earlier, 0 if equal, positive if later.
 * Every adapter encodes positions as one or more `:`-separated unsigned integers (SQLite and memory a
 * zero-padded sequence number, EventStoreDB `<commit>:<prepare>`), compared part by part as integers.
 */
export function comparePositions(a: Position, b: Position): number {
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? -1n;
    const y = right[i] ?? -1n;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function parts(position: Position): bigint[] {
  if (!/^\d+(:\d+)*$/.test(position)) throw new InvalidPositionError(position);
  return position.split(':').map((part) => BigInt(part));
}
