/** A validated chain result with defaults applied. */
export interface ChainResult {
  chainId: number;
  /** null when absent. */
  bundleId: string | null;
  /** Lower-cased and de-duplicated; [] when absent. */
  txHashes: string[];
  /** Opaque, as sent; [] when absent. */
  quoteResults: Record<string, unknown>[];
}

/** A validated POST /attempts/{id}/submitted body (spec: SubmittedRequest). */
export interface SubmittedRequest {
  /** Epoch milliseconds as reported by the partner; null when absent. */
  submittedAt: number | null;
  /** null when absent: evidence is accepted but cannot be promoted to settlement without it. */
  walletAuthorization: { signature: string } | null;
  chainResults: ChainResult[];
}
