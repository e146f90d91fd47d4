import { type Hex } from 'viem';
import { AcrossAdapter } from './across/across.adapter';
import { type FetchFn } from './http/fetch-json';
import { MayanAdapter } from './mayan/mayan.adapter';
import { type ProviderAdapter, type RoutableProvider } from './provider-adapter.port';
import { type ProvidersConfig } from './providers-config';
import { RelayAdapter } from './relay/relay.adapter';

export interface ProviderAdapterDeps {
  /** Defaults to the global fetch. */
  fetch?: FetchFn;
  /** Mayan order salt; defaults to 32 bytes from node:crypto. */
  randomBytes32?: () => Hex;
}

/** One adapter per routable provider, keyed by name. */
export function createProviderAdapters(
  config: ProvidersConfig,
  deps: ProviderAdapterDeps = {},
): Record<RoutableProvider, ProviderAdapter> {
  const fetchFn = deps.fetch ?? fetch;
  return {
    relay: new RelayAdapter(config.relay, fetchFn),
    across: new AcrossAdapter(config.across, fetchFn),
    mayan: new MayanAdapter(config.mayan, { fetch: fetchFn, randomBytes32: deps.randomBytes32 }),
  };
}
