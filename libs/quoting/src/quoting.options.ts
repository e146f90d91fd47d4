import { ROUTABLE_PROVIDERS, type RoutableProvider } from '@svc/providers';

/** Settings of the quoting feature (docs/operations/configuration.md), bound by the composition root. */
export interface QuotingOptions {
  /** expiresAt = quote time + this, never later than the earliest provider deadline. Default 60. */
  quoteTtlSeconds: number;
  /**
   * A provider quote must hold at least this long after quote time (the attempt's signable window plus execution
   * time), or it is `route_unavailable`: prepare refuses calls a wallet signing inside the window could not deposit.
   */
  minimumProviderQuoteSeconds: number;
  /** Route-evaluation budget when the request names no maxWaitMs. Default 8000. */
  defaultMaxWaitMs: number;
  /** Quote calls in flight at once per provider, shared fairly by every request (FairLimiter). Default 64. */
  providerConcurrency: number;
  /** Estimate each routed source's gas into the quote's `sourceGas` (docs/source-economics.md). Default true. */
  sourceGas?: boolean;
  /** How long one chain's fee data is reused by source gas estimates. Default 1000. */
  feeDataMaxAgeMs?: number;
  /** The service's base rate, passed to providers together with the partner's markup. */
  serviceFeeBps: number;
  /** Receives the combined app fee at the providers; required whenever a fee can be non-zero. */
  serviceFeeRecipient: string | null;
}

export const QUOTING_OPTIONS = Symbol('QUOTING_OPTIONS');

/**
 * The SourceGasEstimator (@svc/domain) quotes ask for their sources' gas (docs/source-economics.md); bound by the
 * composition root to the execution feature's chain-reading one. Without it quotes carry no `sourceGas`.
 */
export const SOURCE_GAS_ESTIMATOR = Symbol('SOURCE_GAS_ESTIMATOR');

/** Provider order: the last tie-breaker of route selection; every provider with an adapter, as registered. */
export const PROVIDER_ORDER: readonly RoutableProvider[] = ROUTABLE_PROVIDERS;
