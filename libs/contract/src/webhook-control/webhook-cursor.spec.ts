import { decodeWebhookCursor, encodeWebhookCursor } from './webhook-cursor';

describe('webhook cursor', () => {
  it('round-trips an event-store position', () => {
    for (const position of ['0', '12345', 'C:100/P:99']) {
      const cursor = encodeWebhookCursor(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeWebhookCursor(cursor)).toBe(position);
    }
  });

  it.each([
    '',
    'not a cursor',
    '%2F',
    'e30',
    Buffer.from('{"v":2,"p":"1"}').toString('base64url'),
    'x'.repeat(300),
  ])('refuses %j', (cursor) => {
    expect(decodeWebhookCursor(cursor)).toBeNull();
  });
});
