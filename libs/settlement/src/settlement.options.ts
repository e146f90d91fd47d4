import { DEFAULT_TRACKING_POLICY } from '@svc/domain';

/** Settings of the settlement tracker (docs/operations/configuration.md), bound by the composition root. */
export interface SettlementOptions {
  /** How often the tracker looks for due work (new events, due polls, deliveries seen on chain). */
  tickMs: number;
  /** No terminal outcome by preparedAt + this → failed with settlement_timeout (default 2 h). */
  trackingLimitMs: number;
  /** Provider status polls back off from this … */
  pollMinMs: number;
  /** … to this. */
  pollMaxMs: number;
  /** Attempts tracked at once by one instance. */
  concurrency: number;
  /** One attempt's run holds a place in the pool at most this long; a slower one finishes outside it. */
  attemptBudgetMs: number;
  /** How often the work list and the log position are checkpointed (a restart resumes from there). */
  checkpointEveryMs: number;
  /** A leg is shown delayed this long after its provider's expected fill time. */
  delayMarginMs: number;
  /**
   * While legs await confirmations, their chains' heads are looked at this often (ADR 0008 "Confirmation is
   * block-driven"; default 250 ms). Absent: the default.
   */
  confirmationHeadPollMs?: number;
}

export const SETTLEMENT_OPTIONS = Symbol('SETTLEMENT_OPTIONS');

export const DEFAULT_SETTLEMENT_OPTIONS: SettlementOptions = {
  tickMs: 250,
  trackingLimitMs: DEFAULT_TRACKING_POLICY.trackingLimitMs,
  pollMinMs: DEFAULT_TRACKING_POLICY.pollMinMs,
  pollMaxMs: DEFAULT_TRACKING_POLICY.pollMaxMs,
  concurrency: 16,
  attemptBudgetMs: 20_000,
  checkpointEveryMs: 5000,
  delayMarginMs: DEFAULT_TRACKING_POLICY.delayMarginMs,
};
