import { type PartnerResponse } from '../partner-response';
import { retryDelayMs } from './retry-policy';

const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 2000 };
const NOW = Date.UTC(2026, 0, 1);
const answer = (
  status: number,
  body: unknown = null,
  headers: Record<string, string> = {},
): PartnerResponse => ({
  status,
  headers,
  body,
});
const fullJitter = () => 1;

describe('retryDelayMs', () => {
  it.each<[string, PartnerResponse | undefined, boolean]>([
    ['no response (network error or time-out)', undefined, true],
    ['500', answer(500), true],
    ['502', answer(502), true],
    ['503', answer(503), true],
    ['504', answer(504), true],
    ['501', answer(501), false],
    ['429', answer(429), true],
    ['409 idempotency_request_in_progress', answer(409, { code: 'idempotency_request_in_progress' }), true],
    ['409 external_auth_nonce_conflict', answer(409, { code: 'external_auth_nonce_conflict' }), false],
    ['409 without a body', answer(409), false],
    ['400', answer(400, { code: 'invalid_json' }), false],
    ['401', answer(401), false],
    ['403', answer(403), false],
    ['404', answer(404), false],
    ['422', answer(422), false],
    ['200', answer(200), false],
    ['307', answer(307), false],
  ])('%s → retry: %s', (_label, response, retry) => {
    expect(retryDelayMs(response, 0, policy, NOW) !== undefined).toBe(retry);
  });

  it('stops after maxRetries', () => {
    expect(retryDelayMs(undefined, 2, policy, NOW)).toBeDefined();
    expect(retryDelayMs(undefined, 3, policy, NOW)).toBeUndefined();
    expect(retryDelayMs(undefined, 0, { ...policy, maxRetries: 0 }, NOW)).toBeUndefined();
  });

  it('backs off exponentially up to the cap, with jitter between half and the full step', () => {
    expect(
      [0, 1, 2, 3, 10].map((i) => retryDelayMs(undefined, i, { ...policy, maxRetries: 20 }, NOW, fullJitter)),
    ).toEqual([100, 200, 400, 800, 2000]);
    expect(retryDelayMs(undefined, 2, policy, NOW, () => 0)).toBe(200);
  });

  it('waits for Retry-After when it is longer than the backoff, capped at maxDelayMs', () => {
    expect(retryDelayMs(answer(429, null, { 'retry-after': '1' }), 0, policy, NOW, fullJitter)).toBe(1000);
    expect(retryDelayMs(answer(503, null, { 'retry-after': '0' }), 0, policy, NOW, fullJitter)).toBe(100);
    expect(retryDelayMs(answer(429, null, { 'retry-after': '3600' }), 0, policy, NOW, fullJitter)).toBe(2000);
  });
});
