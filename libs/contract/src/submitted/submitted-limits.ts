/** spec: Limits (submitted), plus a bound on the opaque quoteResults we store. */
export const SUBMITTED_LIMITS = {
  minChainResults: 1,
  maxChainResults: 16,
  maxTxHashes: 64,
  maxBundleIdLength: 255,
  maxQuoteResults: 64,
} as const;
