/** Bounds of the support and reconciliation lookups (docs/lookups.md). */
export const LOOKUP_LIMITS = {
  /** Attempts per page when `limit` is absent. */
  defaultLimit: 50,
  /** The largest `limit` a search may ask for. */
  maxLimit: 100,
  /** A cursor is opaque, but never longer than this. */
  maxCursorLength: 512,
} as const;

/** What a transaction hash must look like, in a lookup path as in submitted evidence. */
export const TX_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;
