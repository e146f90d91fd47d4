import { readEnv } from '@svc/platform';
import { type Address } from 'viem';
import { plainHttpHosts } from './http/plain-http-hosts';
import { ProvidersEnv } from './providers-env.dto';
import { loadCalldataAllowlists } from './vouch/load-calldata-allowlists';
import { type CalldataAllowlists, type ContractAllowlist } from './vouch/provider-contracts';

export interface ProvidersConfig {
  relay: {
    baseUrl: string;
    apiKey: string | null;
    timeoutMs: number;
    /** How long a reported `failure` must stand before the tracker takes it as final (Relay may still refund). */
    failureGraceMs: number;
    /** This process's share of the key's non-quote requests per minute (RELAY_REQUESTS_PER_MINUTE). */
    requestsPerMinute: number;
  };
  across: {
    baseUrl: string;
    apiKey: string | null;
    integratorId: string | null;
    timeoutMs: number;
    /** Never poll one leg's `/deposit/status` more often than this (Across: every 10 s, no faster). */
    minPollIntervalMs: number;
  };
  mayan: {
    priceUrl: string;
    explorerUrl: string;
    apiKey: string | null;
    forwarderAddress: Address;
    referrerAddress: Address | null;
    timeoutMs: number;
  };
  /**
   * The contracts each provider's calls may touch (vouch/): RELAY_CONTRACTS, ACROSS_CONTRACTS, MAYAN_CONTRACTS,
   * narrowed to PROVIDER_CHAINS. Its chains are the ones the provider serves here: a leg starts and ends on them.
   */
  calldata: CalldataAllowlists;
  /** PROVIDER_PLAIN_HTTP_HOSTS: hosts besides loopback whose provider URLs may be plain http. */
  plainHttpHosts: readonly string[];
}

/** Reads the provider variables alone (tests, tools); the apps read them with the rest (loadAppConfig). */
export function loadProvidersConfig(env: NodeJS.ProcessEnv = process.env): ProvidersConfig {
  return providersConfig(readEnv({ providers: ProvidersEnv }, env).providers);
}

/** The adapters' settings from the validated variables. */
export function providersConfig(env: ProvidersEnv): ProvidersConfig {
  const forwarderAddress = env.MAYAN_FORWARDER_ADDRESS as Address;
  return {
    relay: {
      baseUrl: baseUrl(env.RELAY_BASE_URL),
      apiKey: env.RELAY_API_KEY ?? null,
      timeoutMs: env.RELAY_TIMEOUT_MS,
      failureGraceMs: env.RELAY_FAILURE_GRACE_MS,
      requestsPerMinute: env.RELAY_REQUESTS_PER_MINUTE,
    },
    across: {
      baseUrl: baseUrl(env.ACROSS_BASE_URL),
      apiKey: env.ACROSS_API_KEY ?? null,
      integratorId: env.ACROSS_INTEGRATOR_ID ?? null,
      timeoutMs: env.ACROSS_TIMEOUT_MS,
      minPollIntervalMs: env.ACROSS_MIN_POLL_INTERVAL_MS,
    },
    mayan: {
      priceUrl: baseUrl(env.MAYAN_PRICE_URL),
      explorerUrl: baseUrl(env.MAYAN_EXPLORER_URL),
      apiKey: env.MAYAN_API_KEY ?? null,
      forwarderAddress,
      referrerAddress: (env.MAYAN_REFERRER_ADDRESS as Address | undefined) ?? null,
      timeoutMs: env.MAYAN_TIMEOUT_MS,
    },
    calldata: narrowedTo(
      providerChains(env.PROVIDER_CHAINS),
      loadCalldataAllowlists(env, { mayanForwarder: forwarderAddress }),
    ),
    plainHttpHosts: plainHttpHosts(env.PROVIDER_PLAIN_HTTP_HOSTS),
  };
}

/** PROVIDER_CHAINS as chain ids; null when unset (every chain of each allowlist). */
function providerChains(value: string | undefined): ReadonlySet<number> | null {
  if (value === undefined || value.trim() === '') return null;
  return new Set(value.split(',').map((id) => Number(id.trim())));
}

function narrowedTo(chains: ReadonlySet<number> | null, lists: CalldataAllowlists): CalldataAllowlists {
  if (chains === null) return lists;
  const narrow = (list: ContractAllowlist): ContractAllowlist =>
    new Map([...list].filter(([chainId]) => chains.has(chainId)));
  return { relay: narrow(lists.relay), across: narrow(lists.across), mayan: narrow(lists.mayan) };
}

/** Without the trailing slash, so paths join cleanly onto a base that carries a prefix (`…/api`). */
function baseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Every provider credential that is set: what the logger scrubs from every line. Read from the config itself (any
 * `apiKey` of any provider), so a provider added to ProvidersConfig is scrubbed without another list to keep.
 */
export function providerSecrets(config: ProvidersConfig): string[] {
  return Object.values(config).flatMap((section: unknown) => {
    const key = (section as { apiKey?: unknown } | null)?.apiKey;
    return typeof key === 'string' && key.length > 0 ? [key] : [];
  });
}
