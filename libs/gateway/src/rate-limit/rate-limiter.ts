/**
 * Per-partner token bucket: `perMinute` requests per minute with bursts up to the same number. Held in
 * this process's memory, so each gateway instance enforces the limit on its own (documented).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  /** Takes one token; returns 0 when allowed, else the seconds to wait before one is available. */
  take(key: string, perMinute: number, now: number): number {
    const ratePerMs = perMinute / 60000;
    const bucket = this.buckets.get(key) ?? { tokens: perMinute, updatedAt: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + Math.max(0, now - bucket.updatedAt) * ratePerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
  }
}
