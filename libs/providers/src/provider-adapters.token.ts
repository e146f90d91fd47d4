/** Injection token for `Record<RoutableProvider, ProviderAdapter>`, bound by the composition root. */
export const PROVIDER_ADAPTERS = Symbol('PROVIDER_ADAPTERS');
