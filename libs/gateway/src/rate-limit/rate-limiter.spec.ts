import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows perMinute units in a burst, then asks to wait for the next one', () => {
    const limiter = new RateLimiter();
    expect([0, 1, 2].map(() => limiter.take('p', 3, 0).remaining)).toEqual([2, 1, 0]);
    expect(limiter.take('p', 3, 0)).toEqual({
      allowed: false,
      quota: 3,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 20, // one unit every 20 s
    });
    expect(limiter.take('p', 3, 19_000).retryAfterSeconds).toBe(1);
    expect(limiter.take('p', 3, 20_000)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
  });

  it('takes a request weight at once, or nothing when the bucket does not hold it', () => {
    const limiter = new RateLimiter();
    expect(limiter.take('p', 30, 0, 7)).toMatchObject({ allowed: true, remaining: 23, resetSeconds: 14 });
    expect(limiter.take('p', 30, 0, 20)).toMatchObject({ allowed: true, remaining: 3 });
    // 4 units short at 30 a minute: 8 s; nothing was taken, so a cheaper request still passes
    expect(limiter.take('p', 30, 0, 7)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 8 });
    expect(limiter.take('p', 30, 0, 3)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('caps a weight at the whole budget, so that every request can pass on a full bucket', () => {
    const limiter = new RateLimiter();
    expect(limiter.take('p', 10, 0, 251)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take('p', 10, 0, 251)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
  });

  it('keeps keys apart', () => {
    const limiter = new RateLimiter();
    expect(limiter.take('a', 1, 0).allowed).toBe(true);
    expect(limiter.take('a', 1, 0).allowed).toBe(false);
    expect(limiter.take('b', 1, 0).allowed).toBe(true);
  });

  it('never holds more than perMinute units after a long pause', () => {
    const limiter = new RateLimiter();
    limiter.take('p', 2, 0);
    for (let i = 0; i < 2; i++) expect(limiter.take('p', 2, 10 * 60_000).allowed).toBe(true);
    expect(limiter.take('p', 2, 10 * 60_000).allowed).toBe(false);
  });

  it('peeks without taking', () => {
    const limiter = new RateLimiter();
    limiter.take('p', 1, 0);
    expect(limiter.peek('p', 1, 0)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    expect(limiter.peek('p', 1, 60_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.take('p', 1, 60_000).allowed).toBe(true);
  });

  it('drops refilled buckets once it holds 10 000, keeping the ones still spent', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 9_999; i++) limiter.take(`ip-${i}`, 60, 0);
    limiter.take('spent', 1, 0);
    expect(limiter.size).toBe(10_000);
    limiter.take('new', 60, 30_000); // every ip-* bucket has refilled by now (1 a second): dropped
    expect(limiter.size).toBe(2);
    expect(limiter.take('spent', 1, 30_000).allowed).toBe(false);
  });
});
