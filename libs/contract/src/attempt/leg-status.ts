/**
 * StatusLeg.status. The spec leaves the values open; these are ours (docs/attempt-status.md). `settled` and
 * `failed` are terminal.
 */
export const LEG_STATUSES = [
  /** The source transaction is not seen yet (or not yet seen by the provider). */
  'awaiting_source',
  /** The provider saw the deposit and is filling. */
  'pending',
  /** The output reached the recipient. */
  'settled',
  /** The leg ended without delivering; errorCode says why. */
  'failed',
] as const;

export type LegStatus = (typeof LEG_STATUSES)[number];

export function isTerminalLegStatus(status: LegStatus): status is 'settled' | 'failed' {
  return status === 'settled' || status === 'failed';
}

/** StatusLeg.errorCode of a failed leg, and the errorCode of a failed attempt. */
export const LEG_ERROR_CODES = [
  /** Every source transaction of the leg's chain reverted. */
  'source_reverted',
  /** The provider refunded the deposit on the source chain. */
  'refunded',
  /** The provider reported a failure without a refund. */
  'provider_failed',
  /** Not settled (or no wallet authorization) within the tracking limit. */
  'settlement_timeout',
  /** The fill reached the recipient, but below the leg's minimum output: never a silent `settled`. */
  'below_minimum',
  /** The bridge filled but its destination action (a swap into the target) failed: `refund` says what arrived. */
  'destination_action_failed',
] as const;

export type LegErrorCode = (typeof LEG_ERROR_CODES)[number];
