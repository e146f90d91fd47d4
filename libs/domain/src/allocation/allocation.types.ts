/** One input token of the request; `index` is its position in the request's `sources` (inputTokenIndex). */
export interface AllocationSource {
  index: number;
  chainId: number;
  address: string;
  /** Raw base units, > 0. */
  amount: bigint;
  decimals: number;
  symbol: string | null;
  /** Decimal string (already validated); required and positive when there is more than one target. */
  usdValue: string | null;
}

/** One output token; `address` is the target token's address. */
export interface AllocationTarget {
  id: string;
  chainId: number;
  address: string;
  decimals: number;
  symbol: string | null;
  /** Share of the portfolio's USD value; only read when there is more than one target. */
  allocationPercent: number;
}

/**
 * noop: the source already is the target token (same chain and address); same_chain_unsupported: another
 * token on the target's chain (no provider swaps within one chain); route: a cross-chain route.
 */
export type SliceKind = 'noop' | 'same_chain_unsupported' | 'route';

/** The part of one source assigned to one target. */
export interface AllocationSlice {
  /** `${targetId}:${sourceIndex}`, unique within a plan. */
  sliceId: string;
  targetId: string;
  /** The source's `index` (inputTokenIndex). */
  sourceIndex: number;
  chainId: number;
  address: string;
  symbol: string | null;
  decimals: number;
  /** > 0. */
  rawAmount: bigint;
  /** rawAmount in token units (formatRaw). */
  formattedAmount: string;
  /** This slice's share of the source's usdValue, proportional to rawAmount; null when the source has none. */
  usdValue: string | null;
  kind: SliceKind;
  /** A route whose source symbol equals the target token's symbol (case-insensitive, both present). */
  isSameSymbolRoute: boolean;
}

export interface AllocationLeg {
  target: AllocationTarget;
  /** Ordered by sourceIndex. */
  slices: AllocationSlice[];
}

export interface AllocationResult {
  /** In target order. */
  legs: AllocationLeg[];
}

export interface AllocationInput {
  sources: readonly AllocationSource[];
  targets: readonly AllocationTarget[];
}
