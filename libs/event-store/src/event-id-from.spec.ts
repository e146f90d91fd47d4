import { eventIdFrom } from './event-id-from';

describe('eventIdFrom', () => {
  it('is a UUID, the same for the same parts and different for different parts', () => {
    const id = eventIdFrom('intent-is_1', 'IntentQuoted');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventIdFrom('intent-is_1', 'IntentQuoted')).toBe(id);
    expect(eventIdFrom('intent-is_1', 'IntentPrepared')).not.toBe(id);
    expect(eventIdFrom('a\nb')).toBe(eventIdFrom('a', 'b')); // parts are joined by newlines: callers use ids without them
  });
});
