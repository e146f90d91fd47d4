import { type RoutableProvider } from './provider-adapter.port';
import { type ProvidersConfig } from './providers-config';

/** Every provider an adapter serves, in the order boot messages name them. */
export const ROUTABLE_PROVIDERS: readonly RoutableProvider[] = ['relay', 'across', 'mayan'];

export interface MissingCredentials {
  provider: RoutableProvider;
  /** The unset variables, by name. */
  variables: string[];
  /** What running without them costs, per the provider's own documentation. */
  consequence: string;
}

/**
 * What each provider asks production integrators for (reviews/providers.md D16):
 * - Relay: without `x-api-key`, `/requests/v3` (actual amounts) is closed. A key no longer raises the `/quote` limit
 *   by itself (50 a minute by default since 2026-07-21; docs.relay.link references/api/api-keys, docs/providers.md).
 * - Across: an API key and an integratorId, "Both are required for production. Without them, your requests may be
 *   rate-limited or rejected" (docs.across.to /introduction/api-keys).
 * - Mayan: the `apiKey` raises the per-IP limit (swap-sdk README).
 */
export function missingProviderCredentials(
  config: ProvidersConfig,
  providers: readonly RoutableProvider[],
): MissingCredentials[] {
  const missing: MissingCredentials[] = [];
  const unset = (entries: [string, string | null][]) =>
    entries.filter(([, value]) => value === null).map(([name]) => name);
  for (const provider of providers) {
    const variables =
      provider === 'relay'
        ? unset([['RELAY_API_KEY', config.relay.apiKey]])
        : provider === 'across'
          ? unset([
              ['ACROSS_API_KEY', config.across.apiKey],
              ['ACROSS_INTEGRATOR_ID', config.across.integratorId],
            ])
          : unset([['MAYAN_API_KEY', config.mayan.apiKey]]);
    if (variables.length > 0) missing.push({ provider, variables, consequence: CONSEQUENCES[provider] });
  }
  return missing;
}

const CONSEQUENCES: Record<RoutableProvider, string> = {
  relay: "relay's delivered amounts (/requests/v3) stay unknown",
  across: 'across may rate-limit or reject every request',
  mayan: 'mayan rate-limits this host by IP',
};
