/** What a rate limiter answered for one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** The bucket's size: the units of one minute. */
  quota: number;
  /** Whole units left once this request is counted (0 when refused). */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** When refused, seconds until the request's cost is available; 0 when allowed. */
  retryAfterSeconds: number;
}

/** Buckets kept before full ones (which hold nothing a new bucket would not) are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * Token buckets by key: `perMinute` units a minute, refilled continuously, bursts up to the same number. A request
 * costs `cost` units (its weight), never more than a whole bucket so that every request can pass on a full one.
 * Held in this process's memory: each instance of the gateway enforces the limit on its own (documented).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number; perMinute: number }>();

  /** Takes `cost` units from `key`'s bucket when it holds them; refuses, taking nothing, otherwise. */
  take(key: string, perMinute: number, now: number, cost = 1): RateLimitDecision {
    const tokens = this.refill(key, perMinute, now);
    const weight = Math.min(Math.max(cost, 0), perMinute);
    if (tokens >= weight) {
      this.buckets.set(key, { tokens: tokens - weight, updatedAt: now, perMinute });
      return decision(perMinute, tokens - weight, 0);
    }
    this.buckets.set(key, { tokens, updatedAt: now, perMinute });
    return decision(perMinute, tokens, Math.max(1, secondsFor(weight - tokens, perMinute)));
  }

  /** Whether `key`'s bucket holds at least one unit, taking nothing. */
  peek(key: string, perMinute: number, now: number): RateLimitDecision {
    const tokens = this.refill(key, perMinute, now);
    return tokens >= 1
      ? decision(perMinute, tokens, 0)
      : decision(perMinute, tokens, Math.max(1, secondsFor(1 - tokens, perMinute)));
  }

  /** Buckets held now (for tests and the pruning bound). */
  get size(): number {
    return this.buckets.size;
  }

  private refill(key: string, perMinute: number, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= PRUNE_ABOVE) this.prune(now);
      return perMinute;
    }
    return Math.min(perMinute, bucket.tokens + (Math.max(0, now - bucket.updatedAt) * perMinute) / 60_000);
  }

  /** Drops the buckets that have refilled: a key seen again starts full, which is what they hold. */
  private prune(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.updatedAt) * b.perMinute) / 60_000 >= b.perMinute) this.buckets.delete(key);
    }
  }
}

function decision(quota: number, tokens: number, retryAfterSeconds: number): RateLimitDecision {
  return {
    allowed: retryAfterSeconds === 0,
    quota,
    remaining: retryAfterSeconds === 0 ? Math.floor(tokens) : 0,
    resetSeconds: secondsFor(quota - tokens, quota),
    retryAfterSeconds,
  };
}

/** Whole seconds for `units` to refill at `perMinute`, rounded up (after rounding away float noise to the ms). */
function secondsFor(units: number, perMinute: number): number {
  return Math.ceil(Math.round((units * 60_000) / perMinute) / 1000);
}
