import { type Hex } from 'viem';
import { AcrossAdapter } from './across/across.adapter';
import { type HttpSender } from './http/fetch-json';
import { MayanAdapter } from './mayan/mayan.adapter';
import { type ProviderAdapter, type RoutableProvider } from './provider-adapter.port';
import { type ProvidersConfig } from './providers-config';
import { RelayAdapter } from './relay/relay.adapter';
import { VouchedProviderAdapter } from './vouch/vouched-adapter';

export interface ProviderAdapterDeps {
  /** Defaults to a keep-alive connection pool per provider (ProviderHttp); a `fetch`-shaped stand-in also fits. */
  fetch?: HttpSender;
  /** Mayan order salt; defaults to 32 bytes from node:crypto. */
  randomBytes32?: () => Hex;
}

/**
 * One adapter per routable provider, keyed by name, each behind the calldata checks (vouch/): a quote whose calls
 * or amounts we cannot vouch for is a failure here, before quoting compares it or anything stores it.
 */
export function createProviderAdapters(
  config: ProvidersConfig,
  deps: ProviderAdapterDeps = {},
): Record<RoutableProvider, ProviderAdapter> {
  const { calldata } = config;
  return {
    relay: new VouchedProviderAdapter(new RelayAdapter(config.relay, deps.fetch), calldata.relay),
    across: new VouchedProviderAdapter(new AcrossAdapter(config.across, deps.fetch), calldata.across),
    mayan: new VouchedProviderAdapter(
      new MayanAdapter(config.mayan, { fetch: deps.fetch, randomBytes32: deps.randomBytes32 }),
      calldata.mayan,
    ),
  };
}
