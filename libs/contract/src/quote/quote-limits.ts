/** spec: Limits (quote), plus the bounds we put on strings we store. */
export const QUOTE_LIMITS = {
  minSources: 1,
  maxSources: 50,
  /**
   * At most this many targets (review M1): sources × targets bounds the slices a quote routes (about sources + targets,
   * each asked of every provider), so one request cannot fan out to thousands of provider calls.
   */
  maxTargets: 10,
  /**
   * The most slices one quote routes: allocation cuts each source at most where a target's quota ends, so a plan has
   * at most sources + targets - 1 slices (a property the allocation spec checks), each asked of every provider.
   */
  maxRoutedSlices: 50 + 10 - 1,
  minSlippageBps: 1,
  maxSlippageBps: 10_000,
  defaultSlippageBps: 50,
  minMaxWaitMs: 1_000,
  maxMaxWaitMs: 18_000,
  maxDecimals: 255,
  maxSymbolLength: 64,
  maxTargetIdLength: 64,
  /**
   * `uneconomicThresholdBps`: a source is uneconomic when its gas costs at least this share of its value
   * (docs/source-economics.md). 100 = 1% to 10 000 = 100%; default 5 000, half the source eaten by gas.
   */
  minUneconomicThresholdBps: 100,
  maxUneconomicThresholdBps: 10_000,
  defaultUneconomicThresholdBps: 5_000,
  /** allocationPercent values are floats; 33.33 + 33.33 + 33.34 must count as 100. */
  allocationSumTolerance: 1e-9,
} as const;
