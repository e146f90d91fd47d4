import { ROUTABLE_PROVIDERS, type RoutableProvider } from '@svc/providers';

/** Settings of the quoting feature (README "Configuration"), bound by the composition root. */
export interface QuotingOptions {
  /** expiresAt = quote time + this, never later than the earliest provider deadline. Default 60. */
  quoteTtlSeconds: number;
  /** Route-evaluation budget when the request names no maxWaitMs. Default 8000. */
  defaultMaxWaitMs: number;
  /** Quote calls in flight at once per provider, shared fairly by every request (FairLimiter). Default 64. */
  providerConcurrency: number;
  /** The service's base rate, passed to providers together with the partner's markup. */
  serviceFeeBps: number;
  /** Receives the combined app fee at the providers; required whenever a fee can be non-zero. */
  serviceFeeRecipient: string | null;
}

export const QUOTING_OPTIONS = Symbol('QUOTING_OPTIONS');

/** Provider order: the last tie-breaker of route selection; every provider with an adapter, as registered. */
export const PROVIDER_ORDER: readonly RoutableProvider[] = ROUTABLE_PROVIDERS;
