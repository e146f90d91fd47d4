/**
 * Additive on StatusLeg (`fees`): what the leg pays, as quoted when the attempt was prepared. Raw amounts are base-10
 * integer strings in the base units of `token` on `chainId`; USD figures are informational numbers.
 */
export interface LegFees {
  /** The provider's own fees as it quoted them (USD per kind); null for a leg no provider carries (a no-op). */
  providerFees: ProviderFees | null;
  /** The service's base fee, taken by the provider out of the leg's input; null when none applies. */
  serviceFee: AppFeeShare | null;
  /** The partner's markup (quote feeBps), owed to the partner off-chain; null when none was asked. */
  partnerMarkup: AppFeeShare | null;
}

export interface ProviderFees {
  provider: string;
  /** The provider's fee total in USD; null when it gave no figure (unknown, not free). */
  totalUsd: number | null;
  /** Non-zero lines by kind (`provider`, `app`, `gas`, `swap`, `other`) as the provider reported them. */
  lines: { kind: string; usd: number }[];
}

/** One share of the app fee a provider collects on the leg's input (service fee or partner markup). */
export interface AppFeeShare {
  /** The rate asked of the provider for this share, basis points of the input. */
  bps: number;
  /** The rate the provider charges for the whole app fee (service + markup), ≤ their sum (some providers cap it). */
  collectedBps: number;
  chainId: number;
  /** The leg's source token (the zero address for the native currency). */
  token: string;
  /** input × bps / 10 000 × collectedBps / (service + markup bps), rounded down to a base unit. */
  rawAmount: string;
  /** How the provider pays the app fee out: `offchain_balance`, `destination_transfer` or `source_transfer`. */
  paidAs: string | null;
}
