import { encodeOpaqueCursor } from '../http/opaque-cursor';
import { decodeRecoverContinuation, encodeRecoverContinuation } from './recover-continuation';
import { WEBHOOK_CONTROL_LIMITS } from './webhook-control-limits';

const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2026-01-08T00:00:00Z');

describe('recover continuation', () => {
  it('round-trips where a recovery goes on from, for the range it was issued for', () => {
    for (const continuation of [
      { after: { occurredAt: FROM, position: '0000000000000042' }, asOf: '0000000000000099' },
      { after: { occurredAt: TO - 1, position: '12:7' }, asOf: '12:9' },
    ]) {
      const encoded = encodeRecoverContinuation(FROM, TO, continuation);
      expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeRecoverContinuation(FROM, TO, encoded)).toEqual(continuation);
    }
  });

  it('stays within the cursor length with the longest positions it takes', () => {
    const position = `${'9'.repeat(20)}:${'9'.repeat(20)}`;
    const encoded = encodeRecoverContinuation(FROM, TO, {
      after: { occurredAt: TO - 1, position },
      asOf: position,
    });
    expect(encoded.length).toBeLessThanOrEqual(WEBHOOK_CONTROL_LIMITS.maxCursorLength);
    expect(decodeRecoverContinuation(FROM, TO, encoded)).not.toBeNull();
  });

  it('refuses one issued for another range', () => {
    const encoded = encodeRecoverContinuation(FROM, TO, {
      after: { occurredAt: FROM + 5, position: '7' },
      asOf: '9',
    });
    expect(decodeRecoverContinuation(FROM, TO + 1, encoded)).toBeNull();
    expect(decodeRecoverContinuation(FROM + 1, TO, encoded)).toBeNull();
  });

  const forged = (fields: Record<string, unknown>) => {
    const valid = encodeRecoverContinuation(FROM, TO, {
      after: { occurredAt: FROM, position: '7' },
      asOf: '9',
    });
    const payload = JSON.parse(Buffer.from(valid, 'base64url').toString('utf8')) as Record<string, unknown>;
    return encodeOpaqueCursor({ ...payload, ...fields });
  };

  it.each([
    ['empty', ''],
    ['not base64url', 'not a continuation'],
    ['a webhook list cursor', encodeOpaqueCursor({ v: 1, p: '7' })],
    ['another version', forged({ v: 2 })],
    ['a time before the range', forged({ t: FROM - 1 })],
    ['a time at its end', forged({ t: TO })],
    ['a time that is no integer', forged({ t: FROM + 0.5 })],
    ['a position that is none', forged({ p: 'x' })],
    ['a negative position', forged({ p: '-1' })],
    ['an asOf that is none', forged({ s: '' })],
    ['a position too long', forged({ s: '1'.repeat(49) })],
    ['too long', 'A'.repeat(WEBHOOK_CONTROL_LIMITS.maxCursorLength + 1)],
  ])('refuses %s', (_, continuation) => {
    expect(decodeRecoverContinuation(FROM, TO, continuation)).toBeNull();
  });
});
