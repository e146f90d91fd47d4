import { type BreakerPolicy, DEFAULT_BREAKER_POLICY } from '@svc/domain';

/** Settings of the webhook dispatcher (README "Configuration"), bound by the composition root. */
export interface WebhooksOptions {
  /** How often due retries are looked at; a newly queued webhook is tried at once. 0 = only on demand. */
  tickMs: number;
  /** Per try (spec decision: 15 s). */
  timeoutMs: number;
  /**
   * Tries in flight per partner; each attempt's own events stay in order. Partners never share these slots, so a
   * partner whose endpoint hangs holds at most this many and never delays another partner's webhooks.
   */
  concurrency: number;
  /** The circuit breaker of each partner's endpoint (kept in this process's memory). */
  breaker: BreakerPolicy;
}

export const WEBHOOKS_OPTIONS = Symbol('WEBHOOKS_OPTIONS');

export const DEFAULT_WEBHOOKS_OPTIONS: WebhooksOptions = {
  tickMs: 1000,
  timeoutMs: 15_000,
  concurrency: 8,
  breaker: DEFAULT_BREAKER_POLICY,
};
