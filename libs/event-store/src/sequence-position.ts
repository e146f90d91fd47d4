import { InvalidPositionError } from './invalid-position.error';
import { type Position } from './event-store.port';

// Zero-padded so that positions also sort correctly as plain strings (logs, SQL text columns).
const WIDTH = 16;

/** Position of the memory and SQLite stores: the global sequence number of the event. */
export function encodeSequencePosition(sequence: number): Position {
  return String(sequence).padStart(WIDTH, '0');
}

export function decodeSequencePosition(position: Position): number {
  if (!/^\d{1,16}$/.test(position)) throw new InvalidPositionError(position);
  const sequence = Number(position);
  if (!Number.isSafeInteger(sequence)) throw new InvalidPositionError(position);
  return sequence;
}
