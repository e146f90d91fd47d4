/** Settings of the webhook dispatcher (README "Configuration"), bound by the composition root. */
export interface WebhooksOptions {
  /** How often due retries are looked at (new events are tried at once). 0 = this process does not deliver. */
  tickMs: number;
  /** Per try (spec decision: 15 s). */
  timeoutMs: number;
  /** Attempts delivered in parallel; each attempt's own events stay in order. */
  concurrency: number;
}

export const WEBHOOKS_OPTIONS = Symbol('WEBHOOKS_OPTIONS');

export const DEFAULT_WEBHOOKS_OPTIONS: WebhooksOptions = { tickMs: 1000, timeoutMs: 15_000, concurrency: 8 };
