import { type QuoteRequest, type SourceGasTransaction } from '@svc/contract';
import { type QuotedLegExecution } from '../intent-session/intent-session.events';

/** What the chain says one routed source costs to move (docs/source-economics.md), before any pricing. */
export interface SourceGasFigures {
  inputTokenIndex: number;
  chainId: number;
  nativeSymbol: string;
  /** `unavailable`: the chain could not be read; `reason` says why and the figures are zero. */
  status: 'estimated' | 'unavailable';
  reason: string | null;
  transactions: SourceGasTransaction[];
  gasUnits: bigint;
  baseFeePerGas: bigint;
  priorityFeePerGas: bigint;
  l1DataFee: bigint;
  /** gasUnits × (baseFeePerGas + priorityFeePerGas) + l1DataFee, in wei. */
  costNative: bigint;
}

/**
 * Estimates the gas of a quote's routed sources from the chain actions prepare would build for them (a port: the
 * quoting feature asks, the execution feature answers with the chains). Never throws for a chain it cannot read: that
 * source is `unavailable`.
 */
export interface SourceGasEstimator {
  estimate(input: SourceGasInput): Promise<SourceGasFigures[]>;
  /** The native token's symbol of a configured chain, else null. */
  nativeSymbol(chainId: number): string | null;
  /**
   * One quote's estimates (optional): `speculate` starts reading the chains for a plan the providers' answers so far
   * would route, while the rest are awaited; the session's `estimate` of the final plan reuses a chain's reads when
   * that chain's calls are exactly those, and reads afresh otherwise. Its figures are the same either way.
   */
  session?(): SourceGasSession;
}

export interface SourceGasInput {
  request: QuoteRequest;
  legs: readonly QuotedLegExecution[];
}

export interface SourceGasSession {
  /** Never throws and never rejects: a speculation that fails is only not reused. */
  speculate(input: SourceGasInput): void;
  estimate(input: SourceGasInput): Promise<SourceGasFigures[]>;
}

/** A routed source whose gas could not be estimated: `reason` says why, every figure is zero. */
export function unavailableSourceGas(
  inputTokenIndex: number,
  chainId: number,
  nativeSymbol: string,
  reason: string,
): SourceGasFigures {
  return {
    inputTokenIndex,
    chainId,
    nativeSymbol,
    status: 'unavailable',
    reason,
    transactions: [],
    gasUnits: 0n,
    baseFeePerGas: 0n,
    priorityFeePerGas: 0n,
    l1DataFee: 0n,
    costNative: 0n,
  };
}
