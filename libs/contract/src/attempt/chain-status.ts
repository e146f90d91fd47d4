/**
 * PerChainStatus.status. The spec leaves the values open; these are ours (docs/attempt-status.md). Partners
 * should still treat an unknown value as "in progress".
 */
export const CHAIN_STATUSES = [
  /** No bundle id or tx hash reported for this chain yet. */
  'awaiting_evidence',
  /** Evidence reported; no source transaction confirmed yet. */
  'submitted',
  /** A reported source transaction executed the prepared calls. */
  'confirmed',
  /** Every known source transaction of this chain reverted. */
  'reverted',
  /** Every leg from this chain settled. */
  'settled',
  /** Every leg from this chain ended, at least one failed. */
  'failed',
  /** The attempt expired: no evidence came for it before its evidenceDeadlineAt (the attempt's own status says so). */
  'expired',
] as const;

export type ChainStatus = (typeof CHAIN_STATUSES)[number];
