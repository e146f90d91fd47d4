/**
 * What each source costs the user's own wallet to move, in the quote (docs/source-economics.md): the transactions its
 * chain actions need on its source chain, their gas, the fee per gas the chain asks, and the source's value net of it.
 * An addition to v1's QuoteResponse (optional `sourceGas`): raw amounts are base-10 strings, USD figures numbers.
 */

/** `approve_reset` is the `approve(spender, 0)` a USDT-style token needs first; `transfer` delivers a no-op slice. */
export type SourceGasTransactionKind = 'approve' | 'approve_reset' | 'deposit' | 'transfer' | 'other';

/**
 * `simulated`: gas used by the call as built, run in order after the chain's earlier calls (eth_simulateV1);
 * `per_call_estimate`: the documented figure for its kind, where the chain could not simulate it.
 */
export type SourceGasMethod = 'simulated' | 'per_call_estimate';

export interface SourceGasTransaction {
  kind: SourceGasTransactionKind;
  to: string;
  /** Gas units, intrinsic gas included (each call as its own transaction). */
  gasUnits: string;
  gasMethod: SourceGasMethod;
  /** The L1 data fee of this transaction on chains that charge one (OP stack), in wei; "0" elsewhere. */
  l1DataFeeWei: string;
}

export interface SourceGasEstimate {
  inputTokenIndex: number;
  chainId: number;
  address: string;
  symbol: string;
  /** `unavailable`: the chain could not be read (then every figure below is null and `reason` says why). */
  status: 'estimated' | 'unavailable';
  reason: string | null;
  transactions: SourceGasTransaction[];
  gasUnits: string | null;
  /** The chain's latest base fee, and the priority tip its node suggests (EIP-1559), in wei per gas. */
  baseFeePerGasWei: string | null;
  priorityFeePerGasWei: string | null;
  l1DataFeeWei: string | null;
  /** gasUnits × (base fee + tip) + L1 data fee, in the chain's native token's base units. */
  costNativeRaw: string | null;
  nativeSymbol: string;
  /** USD per whole native token, and where it came from: `request_source`, `request_target` or `provider:<name>`. */
  nativePriceUsd: number | null;
  nativePriceSource: string | null;
  costUsd: number | null;
  /** The source's value: the request's `usdValue` (`request`) or the provider's input value (`provider:<name>`). */
  valueUsd: number | null;
  valueSource: string | null;
  netValueUsd: number | null;
  /** costUsd / valueUsd in basis points (for a native source, exact in wei without prices). */
  costShareBps: number | null;
  /** costShareBps ≥ the threshold; null when the source's value or its gas could not be priced. */
  uneconomic: boolean | null;
  /** Left out at `excludeUneconomicSources` (also in failedSources, reasonCode `source_uneconomic`). */
  excluded: boolean;
}

export interface SourceGasTotals {
  /** Over the sources routed (excluded ones not counted); null when any of them could not be priced. */
  costUsd: number | null;
  valueUsd: number | null;
  netValueUsd: number | null;
  /** Per source chain, over its routed sources (excluded ones and `unavailable` ones not counted). */
  perChain: SourceGasChainTotals[];
  uneconomicSourceCount: number;
  excludedSourceCount: number;
}

export interface SourceGasReport {
  thresholdBps: number;
  excludeUneconomicSources: boolean;
  sources: SourceGasEstimate[];
  totals: SourceGasTotals;
}

/**
 * One source chain's figures for the wallet as a whole: sent as ordered transactions (`sendTransaction`, what the
 * per-source figures assume), or as one atomic `wallet_sendCalls` batch where the wallet supports it, whose gas is
 * estimated as the same calls with the 21 000 intrinsic gas paid once (the wallet's own batching code not counted).
 */
export interface SourceGasChainTotals {
  chainId: number;
  nativeSymbol: string;
  transactionCount: number;
  gasUnits: string;
  costNativeRaw: string;
  atomicBatchGasUnits: string;
  atomicBatchCostNativeRaw: string;
}
