/** The request is over the provider's rate limit; each dialect answers 429 with `Retry-After: retryAfterSeconds`. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limited: retry after ${retryAfterSeconds} s`);
  }
}
