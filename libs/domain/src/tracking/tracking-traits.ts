/**
 * How one provider's legs are followed, declared by its adapter (the provider port carries the same shape), so the
 * tracking rules name no provider.
 */
export interface TrackingTraits {
  /** The leg can be polled before its source transaction is seen (a provider that finds it by request id). */
  pollsBeforeSourceTx: boolean;
  /** Never poll one leg more often than this (the provider's published guidance). */
  minPollIntervalMs: number;
  /** A reported failure is final only after it stood this long (a refund can still follow); 0 = final at once. */
  failureGraceMs: number;
  /** How long a fill usually takes once the deposit is confirmed; a leg open past it is shown `delayed`. */
  expectedFillSeconds?: number;
  /**
   * How long after its deposit is confirmed the provider may still fill the leg, when the deposit's own deadline was
   * not read (no `fillDeadlineAt` recorded on the leg). Absent: the provider names none.
   */
  fillWindowMs?: number;
  /**
   * After the fill deadline, how long the provider's refund may take to arrive (across: the next bundle plus its
   * challenge period). A leg whose deposit was seen is followed until its fill deadline plus this, even past the
   * policy's tracking limit (issue 24 item 2).
   */
  refundWindowMs?: number;
}

/** The tracker's own pacing, from configuration. */
export interface TrackingPolicy {
  /** Provider polls back off from this … */
  pollMinMs: number;
  /** … to this, doubling while nothing changes. */
  pollMaxMs: number;
  /** A reported hash the node does not know (or has not mined) is read again after this, doubling … */
  hashRetryMinMs: number;
  /** … up to this. */
  hashRetryMaxMs: number;
  /** A hash the node never knew for this long is given up: recorded once as unknown, never read again. */
  hashGiveUpMs: number;
  /**
   * No terminal outcome by preparedAt + this → failed with settlement_timeout; except a leg its provider can still
   * fill or refund (fillDeadline + refund window, `legDeadlines`), which is followed until then.
   */
  trackingLimitMs: number;
  /** A leg counts as delayed this long after its expected fill time. */
  delayMarginMs: number;
}

export const DEFAULT_TRACKING_POLICY: TrackingPolicy = {
  pollMinMs: 1000,
  pollMaxMs: 30_000,
  hashRetryMinMs: 1000,
  hashRetryMaxMs: 60_000,
  hashGiveUpMs: 15 * 60_000,
  trackingLimitMs: 2 * 3600_000,
  delayMarginMs: 60_000,
};
