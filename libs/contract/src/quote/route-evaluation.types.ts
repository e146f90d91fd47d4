import { type QuoteStatus } from '../enums/quote-status';
import { type FailedSource } from './failed-source.types';
import { type LegOutputRef } from './selected-plan.types';

/** spec: RouteEvaluationEntry. Informational: partners build no logic on it. */
export interface RouteEvaluationEntry {
  outputTargetId: string;
  routeId: string;
  provider: string;
  coveredSliceCount: number;
  totalSliceCount: number;
  isFullRoute: boolean;
  availability: string;
  isSelected: boolean;
  failedSources: FailedSource[];
  requiredQuoteCount?: number;
  noopSliceCount?: number;
  rejectedQuoteCount?: number;
  isBestReturn?: boolean;
  isFastest?: boolean;
  expectedOutputRaw?: string | null;
  minimumOutputRaw?: string | null;
  expectedOutputAmount?: string | null;
  minimumOutputAmount?: string | null;
  output?: LegOutputRef | null;
  totalOutputUsd?: number | null;
  totalFeeUsd?: number | null;
  totalLossUsd?: number | null;
  timeEstimate?: number | null;
}

/** spec: RouteEvaluationGroup: the routes evaluated for one target. */
export interface RouteEvaluationGroup {
  outputTargetId: string;
  quoteStatus: QuoteStatus;
  selectedRouteId: string | null;
  evaluations: RouteEvaluationEntry[];
}
