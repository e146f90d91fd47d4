import { createHash } from 'node:crypto';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../http/opaque-cursor';
import { WEBHOOK_CONTROL_LIMITS } from './webhook-control-limits';

/**
 * Where a recovery goes on from (POST /webhooks/recover): after the last queued event the previous page covered, by
 * (occurredAt, log position), among the events queued at or before the log position `asOf` (when the first page ran).
 */
export interface RecoverContinuation {
  after: { occurredAt: number; position: string };
  asOf: string;
}

/** An event-store position as every adapter writes it: `:`-separated unsigned integers. */
const POSITION = /^\d{1,20}(:\d{1,20})*$/;
const MAX_POSITION_LENGTH = 48;

/** Binds a continuation to its range: another range cannot go on from it. */
function rangeDigest(from: number, to: number): string {
  return createHash('sha256')
    .update(JSON.stringify([from, to]))
    .digest('hex')
    .slice(0, 16);
}

/** The opaque continuation of a recovery of [from, to): base64url JSON, never parsed by partners. */
export function encodeRecoverContinuation(
  from: number,
  to: number,
  continuation: RecoverContinuation,
): string {
  const { after, asOf } = continuation;
  return encodeOpaqueCursor({
    v: 1,
    t: after.occurredAt,
    p: after.position,
    s: asOf,
    r: rangeDigest(from, to),
  });
}

/** What a continuation names, or null when it is not one this service issued for a recovery of [from, to). */
export function decodeRecoverContinuation(
  from: number,
  to: number,
  continuation: string,
): RecoverContinuation | null {
  const payload = decodeOpaqueCursor(continuation, WEBHOOK_CONTROL_LIMITS.maxCursorLength);
  if (payload === null) return null;
  const { v, t, p, s, r } = payload;
  if (v !== 1 || r !== rangeDigest(from, to)) return null;
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < from || t >= to) return null;
  const position = (value: unknown): value is string =>
    typeof value === 'string' && value.length <= MAX_POSITION_LENGTH && POSITION.test(value);
  if (!position(p) || !position(s)) return null;
  return { after: { occurredAt: t, position: p }, asOf: s };
}
