import { intentSessionIdFor } from './intent-session-id';

describe('intentSessionIdFor', () => {
  it('is the same for a retry of one partner key, so a retry finds the session the first try created', () => {
    expect(intentSessionIdFor('partner-1', 'key-1')).toBe(intentSessionIdFor('partner-1', 'key-1'));
  });

  it("differs per key, and per partner for one key (a partner never reaches another's session)", () => {
    const ids = [
      intentSessionIdFor('partner-1', 'key-1'),
      intentSessionIdFor('partner-1', 'key-2'),
      intentSessionIdFor('partner-2', 'key-1'),
    ];
    expect(new Set(ids).size).toBe(3);
  });

  it('is fresh on every call without an Idempotency-Key', () => {
    expect(intentSessionIdFor('partner-1', null)).not.toBe(intentSessionIdFor('partner-1', null));
  });

  it('reads is_ then 32 hex digits, with or without a key', () => {
    for (const key of ['key-1', null])
      expect(intentSessionIdFor('partner-1', key)).toMatch(/^is_[0-9a-f]{32}$/);
  });
});
