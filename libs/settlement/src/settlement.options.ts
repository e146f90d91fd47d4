/** Settings of the settlement tracker (README "Configuration"), bound by the composition root. */
export interface SettlementOptions {
  /** How often the tracker looks at the attempts it follows. */
  tickMs: number;
  /** No terminal outcome by preparedAt + this → failed with settlement_timeout (default 2 h). */
  trackingLimitMs: number;
  /** Provider status polls back off from this … */
  pollMinMs: number;
  /** … to this. */
  pollMaxMs: number;
}

export const SETTLEMENT_OPTIONS = Symbol('SETTLEMENT_OPTIONS');

export const DEFAULT_SETTLEMENT_OPTIONS: SettlementOptions = {
  tickMs: 1000,
  trackingLimitMs: 2 * 3600_000,
  pollMinMs: 1000,
  pollMaxMs: 30_000,
};
