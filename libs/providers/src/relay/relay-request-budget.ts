/**
 * Relay's limit for one API key on every endpoint but /quote: "200 requests per minute" by default (relay-docs
 * references/api/api-keys.mdx). Status polls of every leg in flight share it, so bursts of legs would meet 429s.
 */
export const RELAY_KEY_REQUESTS_PER_MINUTE = 200;

/**
 * A sliding one-minute window over the requests this process sent with one key: `take` records a request when the
 * window has room, else says how long until the oldest one leaves it (the caller waits that long, as after a 429's
 * Retry-After). Per process: instances sharing a key share Relay's limit between them.
 */
export class RelayRequestBudget {
  private readonly sent: number[] = [];

  constructor(
    private readonly perMinute: number = RELAY_KEY_REQUESTS_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** null: go ahead (counted); else the ms to wait before asking again. */
  take(): number | null {
    const at = this.now();
    while (this.sent.length > 0 && this.sent[0] <= at - 60_000) this.sent.shift();
    if (this.sent.length < this.perMinute) {
      this.sent.push(at);
      return null;
    }
    return this.sent[0] + 60_000 - at;
  }
}
