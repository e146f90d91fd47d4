import { decodeWebhookCursor, encodeWebhookCursor } from './webhook-cursor';

/** base64url of a JSON payload, as the opaque-cursor codec writes it. */
const raw = (payload: unknown) => Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');

describe('webhook cursor', () => {
  it("round-trips the partner's last event, or the start of its list", () => {
    for (const eventId of ['0b4e7a36-1f5c-5d2e-9a57-3c4e1d2f8a90', 'a0-0', 'x'.repeat(128)]) {
      const cursor = encodeWebhookCursor('partner-a', eventId);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeWebhookCursor('partner-a', cursor)).toEqual({ kind: 'after-event', eventId });
    }
    expect(decodeWebhookCursor('partner-a', encodeWebhookCursor('partner-a', null))).toEqual({
      kind: 'start',
    });
  });

  it('holds no log position: the same event, or none, gives the same cursor whenever it is issued (N-L2)', () => {
    expect(encodeWebhookCursor('partner-a', 'e1')).toBe(encodeWebhookCursor('partner-a', 'e1'));
    expect(JSON.parse(Buffer.from(encodeWebhookCursor('partner-a', 'e1'), 'base64url').toString())).toEqual({
      v: 2,
      e: 'e1',
      d: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  it("refuses another partner's cursor", () => {
    expect(decodeWebhookCursor('partner-b', encodeWebhookCursor('partner-a', 'e1'))).toBeNull();
    expect(decodeWebhookCursor('partner-b', encodeWebhookCursor('partner-a', null))).toBeNull();
  });

  it('refuses every one-character edit, including the bits base64url leaves unused at the end', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const cursor of [encodeWebhookCursor('partner-a', 'e1'), encodeWebhookCursor('partner-a', null)]) {
      for (let i = 0; i < cursor.length; i++)
        for (const c of alphabet) {
          if (c === cursor[i]) continue;
          const edited = cursor.slice(0, i) + c + cursor.slice(i + 1);
          expect([edited, decodeWebhookCursor('partner-a', edited)]).toEqual([edited, null]);
        }
    }
  });

  it('reads a cursor of the form issued before (a log position), for any partner', () => {
    for (const position of ['0', '12345', '0000000000000042', '17:16'])
      expect(decodeWebhookCursor('partner-b', raw({ v: 1, p: position }))).toEqual({
        kind: 'position',
        position,
      });
  });

  it.each([
    '',
    'not a cursor',
    '%2F',
    'e30',
    'x'.repeat(300),
    raw({ v: 1, p: 'C:100/P:99' }),
    raw({ v: 1, p: '-5' }),
    raw({ v: 1, p: '' }),
    raw({ v: 1, p: '1', x: 1 }),
    raw({ p: '1', v: 1 }),
    raw({ v: 2, e: 'e1' }),
    raw({ v: 2, e: '', d: '0'.repeat(16) }),
    raw({ v: 3, e: 'e1', d: '0'.repeat(16) }),
  ])('refuses %j', (cursor) => {
    expect(decodeWebhookCursor('partner-a', cursor)).toBeNull();
  });
});
