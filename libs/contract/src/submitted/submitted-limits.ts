/** spec: Limits (submitted), plus a bound on the opaque quoteResults we store. */
export const SUBMITTED_LIMITS = {
  minChainResults: 1,
  maxChainResults: 16,
  maxTxHashes: 64,
  maxBundleIdLength: 255,
  maxQuoteResults: 64,
} as const;

/**
 * What one attempt keeps as evidence, per chain and over every report: the settlement tracker reads each reported
 * hash from the chain, so an unbounded list would let one partner stall tracking for everyone. A wallet that
 * re-broadcasts or speeds up each call still fits in twice the chain's calls, plus some slack.
 */
export const EVIDENCE_LIMITS = {
  txHashesPerCall: 2,
  extraTxHashes: 8,
  bundleIds: 8,
} as const;

/** The most distinct transaction hashes one chain of an attempt keeps, for a chain action of `callCount` calls. */
export function maxTxHashesPerChain(callCount: number): number {
  return EVIDENCE_LIMITS.txHashesPerCall * callCount + EVIDENCE_LIMITS.extraTxHashes;
}
