import { type CoverageMode } from '../enums/coverage-mode';
import { type QuoteStatus } from '../enums/quote-status';
import { type API_VERSION } from '../errors/error-response';
import { type AllocationPlan } from './allocation-plan.types';
import { type FailedSource } from './failed-source.types';
import { type RouteEvaluationGroup } from './route-evaluation.types';
import { type SelectedPlan } from './selected-plan.types';
import { type SourceGasReport } from './source-gas.types';

/** spec: QuoteResponse (200 of POST /intents/quote). */
export interface QuoteResponse {
  apiVersion: typeof API_VERSION;
  quoteStatus: QuoteStatus;
  intentSessionId: string;
  /** ISO 8601: deadline for calling prepare. */
  expiresAt: string;
  coverageMode: CoverageMode;
  allocationPlan: AllocationPlan;
  selectedPlan: SelectedPlan | null;
  failedSources: FailedSource[];
  routeEvaluations: RouteEvaluationGroup[];
  /**
   * What each routed source costs the user's wallet in gas on its chain, and its value net of it (an addition to
   * v1; absent on quotes recorded before it). docs/source-economics.md.
   */
  sourceGas?: SourceGasReport;
}
