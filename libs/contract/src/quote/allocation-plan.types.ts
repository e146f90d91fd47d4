import { type Target } from './target.types';

/** spec: SourceAllocation: the share of one input token assigned to one target. */
export interface SourceAllocation {
  /** Index into the request's `sources`. */
  inputTokenIndex: number;
  chainId: number;
  address: string;
  symbol: string;
  decimals: number;
  allocatedRawAmount: string;
  allocatedAmount: string;
  isNoop: boolean;
  isSameSymbolRoute: boolean;
  logoUrl?: string;
  allocatedUsdValue?: string | null;
}

export interface AllocationPlanLeg {
  outputTargetId: string;
  target: Target;
  sourceAllocations: SourceAllocation[];
}

/** spec: AllocationPlan. */
export interface AllocationPlan {
  legs: AllocationPlanLeg[];
}
