import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows perMinute requests in a burst, then asks to wait for the next token', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 3; i++) expect(limiter.take('p', 3, 0)).toBe(0);
    expect(limiter.take('p', 3, 0)).toBe(20); // one token every 20 s
    expect(limiter.take('p', 3, 19_000)).toBe(1);
    expect(limiter.take('p', 3, 20_000)).toBe(0);
  });

  it('keeps partners apart', () => {
    const limiter = new RateLimiter();
    expect(limiter.take('a', 1, 0)).toBe(0);
    expect(limiter.take('a', 1, 0)).toBeGreaterThan(0);
    expect(limiter.take('b', 1, 0)).toBe(0);
  });

  it('never holds more than perMinute tokens after a long pause', () => {
    const limiter = new RateLimiter();
    limiter.take('p', 2, 0);
    for (let i = 0; i < 2; i++) expect(limiter.take('p', 2, 10 * 60_000)).toBe(0);
    expect(limiter.take('p', 2, 10 * 60_000)).toBeGreaterThan(0);
  });
});
