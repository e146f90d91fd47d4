import { type ProviderName } from '@svc/contract';
import { type AllocationLeg, type AllocationSlice } from '../allocation';

/** Why a slice is not covered by a route (spec FailedSource, domain side). */
export interface SliceFailure {
  slice: AllocationSlice;
  provider: ProviderName | null;
  reasonCode: string;
  reason: string;
}

/** One (target, provider) pair: what that provider alone would deliver for the target's slices. */
export interface RouteEvaluation {
  routeId: string;
  targetId: string;
  provider: ProviderName;
  totalSliceCount: number;
  noopSliceCount: number;
  /** Slices that need this provider's quote (not no-ops, not same-chain). */
  requiredQuoteCount: number;
  /** Covered = no-ops plus slices this provider quoted. */
  coveredSliceCount: number;
  rejectedQuoteCount: number;
  isFullRoute: boolean;
  availability: 'full' | 'partial' | 'none';
  /** Slices this route delivers (no-ops and quoted), in leg order. */
  coveredSliceIds: string[];
  /** Target base units, already net of fees; no-ops count their own amount. */
  expectedOutputRaw: bigint;
  minimumOutputRaw: bigint;
  /** USD of the covered inputs, by the partner's usdValue or else the provider's input USD; null when unknown. */
  coveredInputUsd: number | null;
  outputUsd: number | null;
  feeUsd: number | null;
  /** Value lost beyond fees: input − output − fees, never below 0; null when a figure is unknown. */
  lossUsd: number | null;
  /** Legs run in parallel: the slowest quoted slice. */
  etaSeconds: number | null;
  isBestReturn: boolean;
  isFastest: boolean;
  failures: SliceFailure[];
}

export type EvaluatedLeg = { leg: AllocationLeg; routes: RouteEvaluation[]; unroutable: SliceFailure[] };
