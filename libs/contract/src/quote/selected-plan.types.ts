import { type FailedSource } from './failed-source.types';
import { type Target } from './target.types';

/** spec: LegOutputRef: the token a leg delivers. */
export interface LegOutputRef {
  chainId: number;
  tokenAddress: string;
  symbol: string;
  decimals: number;
}

/**
 * spec: LegEconomicSummary. expectedOutputAmount is already net of fees and loss; fee and loss are
 * different concepts and never added together.
 */
export interface LegEconomicSummary {
  expectedOutputRaw: string | null;
  minimumOutputRaw: string | null;
  expectedOutputAmount: string | null;
  minimumOutputAmount: string | null;
  output: LegOutputRef;
  totalOutputUsd?: number | null;
  totalFeeUsd?: number | null;
  totalLossUsd?: number | null;
  /** ETA in seconds. */
  timeEstimate?: number | null;
}

/** spec: SelectedPlanLeg. */
export interface SelectedPlanLeg {
  outputTargetId: string;
  routeId: string;
  provider: string;
  target: Target;
  coveredSliceCount: number;
  totalSliceCount: number;
  requiredQuoteCount: number;
  noopSliceCount: number;
  isFullRoute: boolean;
  summary: LegEconomicSummary;
  failedSources: FailedSource[];
}

/** spec: SelectedPlan.summary. */
export interface SelectedPlanSummary {
  totalOutputUsd: number | null;
  totalFeeUsd: number | null;
  totalLossUsd: number | null;
  /** ETA in seconds. */
  timeEstimate: number | null;
}

/** spec: SelectedPlan. */
export interface SelectedPlan {
  isFullPlan: boolean;
  coveredSliceCount: number;
  totalSliceCount: number;
  providerSet: string[];
  legs: SelectedPlanLeg[];
  summary: SelectedPlanSummary;
}
