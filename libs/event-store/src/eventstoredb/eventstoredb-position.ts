import { type Position as EsdbPosition } from '@kurrent/kurrentdb-client';
import { InvalidPositionError } from '../invalid-position.error';
import { type Position } from '../event-store.port';

/** `<commit>:<prepare>`: both parts are needed to resume reading $all at an exact event. */
export function encodeEsdbPosition(position: EsdbPosition): Position {
  return `${position.commit}:${position.prepare}`;
}

export function decodeEsdbPosition(position: Position): EsdbPosition {
  const match = /^(\d+):(\d+)$/.exec(position);
  if (match === null) throw new InvalidPositionError(position);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}
