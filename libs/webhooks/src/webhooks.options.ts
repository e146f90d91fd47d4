import { type BreakerPolicy, DEFAULT_BREAKER_POLICY } from '@svc/domain';

/** Settings of the webhook dispatcher (docs/operations/configuration.md), bound by the composition root. */
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
  /**
   * The non-public addresses webhooks may be sent to (IPs or CIDRs; WEBHOOK_ALLOWED_ADDRESSES). Absent: loopback only,
   * the default off production; `[]`: public addresses only, the default in production.
   */
  allowedCallbackAddresses?: readonly string[];
  /** Retention and compaction of the delivery history (docs/webhooks.md "Retention"); absent: the defaults. */
  history?: WebhookHistoryOptions;
}

/** How long the delivery history is kept whole, and how its compaction works through the store. */
export interface WebhookHistoryOptions {
  /** WEBHOOK_HISTORY_RETENTION_DAYS: every try stays listed at least this long (at least 30) before compaction. */
  retentionDays: number;
  /** A compaction pass this often (0: only on demand, as tests do); one instance per store runs them (a lease). */
  compactEveryMs: number;
  /** Webhook streams one pass looks at, at most: bounded work, the next pass goes on from the checkpoint. */
  streamsPerPass: number;
}

export const DEFAULT_WEBHOOK_HISTORY_OPTIONS: WebhookHistoryOptions = {
  retentionDays: 30,
  compactEveryMs: 10_000,
  streamsPerPass: 200,
};

export const WEBHOOKS_OPTIONS = Symbol('WEBHOOKS_OPTIONS');

export const DEFAULT_WEBHOOKS_OPTIONS: WebhooksOptions = {
  tickMs: 1000,
  timeoutMs: 15_000,
  concurrency: 8,
  breaker: DEFAULT_BREAKER_POLICY,
  history: DEFAULT_WEBHOOK_HISTORY_OPTIONS,
};
