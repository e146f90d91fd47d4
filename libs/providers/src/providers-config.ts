import { ConfigError } from '@svc/platform';
import { type Address, isAddress } from 'viem';
import { mayUsePlainHttp, plainHttpHosts } from './http/plain-http-hosts';
import { loadCalldataAllowlists } from './vouch/load-calldata-allowlists';
import { type CalldataAllowlists } from './vouch/provider-contracts';

export interface ProvidersConfig {
  relay: {
    baseUrl: string;
    apiKey: string | null;
    timeoutMs: number;
    /** How long a reported `failure` must stand before the tracker takes it as final (Relay may still refund). */
    failureGraceMs: number;
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
  /** The contracts each provider's calls may touch (vouch/): RELAY_CONTRACTS, ACROSS_CONTRACTS, MAYAN_CONTRACTS. */
  calldata: CalldataAllowlists;
  /** PROVIDER_PLAIN_HTTP_HOSTS: hosts besides loopback whose provider URLs may be plain http. */
  plainHttpHosts: readonly string[];
}

/** Production endpoints (reference/providers.md §1.1, §2.1, §3.1). */
export const PROVIDER_DEFAULTS = {
  relayBaseUrl: 'https://api.relay.link',
  acrossBaseUrl: 'https://app.across.to/api',
  mayanPriceUrl: 'https://price-api.mayan.finance/v3',
  mayanExplorerUrl: 'https://explorer-api.mayan.finance/v3',
  mayanForwarderAddress: '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2',
  timeoutMs: 8000,
  /**
   * Relay's own SDK treats `failure` as not yet final ("pending -> failure -> pending -> refund", relay-kit
   * packages/sdk/src/utils/executeSteps/websocketHandlers.ts); a refund follows "almost instantly" when one is
   * due (relay-docs references/api/api_core_concepts/refunds.mdx). Ten minutes leaves room for a slow refund.
   */
  relayFailureGraceMs: 600_000,
  /** "Poll /deposit/status every 10 seconds. Do not poll more frequently" (skills.across.to tracking-transactions). */
  acrossMinPollIntervalMs: 10_000,
} as const;

type Env = Record<string, string | undefined>;

/** Reads the provider settings; unset or empty variables keep their defaults. Messages never echo a key. */
export function loadProvidersConfig(env: Env = process.env): ProvidersConfig {
  const mayanForwarder = address(env, 'MAYAN_FORWARDER_ADDRESS') ?? PROVIDER_DEFAULTS.mayanForwarderAddress;
  return {
    relay: {
      baseUrl: url(env, 'RELAY_BASE_URL', PROVIDER_DEFAULTS.relayBaseUrl),
      apiKey: secret(env, 'RELAY_API_KEY'),
      timeoutMs: timeout(env, 'RELAY_TIMEOUT_MS'),
      failureGraceMs: milliseconds(env, 'RELAY_FAILURE_GRACE_MS', PROVIDER_DEFAULTS.relayFailureGraceMs, {
        max: 86_400_000,
      }),
    },
    across: {
      baseUrl: url(env, 'ACROSS_BASE_URL', PROVIDER_DEFAULTS.acrossBaseUrl),
      apiKey: secret(env, 'ACROSS_API_KEY'),
      integratorId: integratorId(env, 'ACROSS_INTEGRATOR_ID'),
      timeoutMs: timeout(env, 'ACROSS_TIMEOUT_MS'),
      minPollIntervalMs: milliseconds(
        env,
        'ACROSS_MIN_POLL_INTERVAL_MS',
        PROVIDER_DEFAULTS.acrossMinPollIntervalMs,
        { max: 600_000 },
      ),
    },
    mayan: {
      priceUrl: url(env, 'MAYAN_PRICE_URL', PROVIDER_DEFAULTS.mayanPriceUrl),
      explorerUrl: url(env, 'MAYAN_EXPLORER_URL', PROVIDER_DEFAULTS.mayanExplorerUrl),
      apiKey: secret(env, 'MAYAN_API_KEY'),
      forwarderAddress: mayanForwarder,
      referrerAddress: address(env, 'MAYAN_REFERRER_ADDRESS'),
      timeoutMs: timeout(env, 'MAYAN_TIMEOUT_MS'),
    },
    calldata: loadCalldataAllowlists(env, { mayanForwarder }),
    plainHttpHosts: plainHttpHosts(env),
  };
}

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function invalid(name: string, rule: string): ConfigError {
  return new ConfigError(`invalid environment:\n  ${name}: ${rule}`);
}

/** Without the trailing slash, so paths join cleanly onto a base that carries a prefix (`…/api`). */
function url(env: Env, name: string, fallback: string): string {
  const value = read(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid(name, 'must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid(name, 'must be an absolute http(s) URL');
  if (parsed.protocol === 'http:' && !mayUsePlainHttp(parsed.hostname, plainHttpHosts(env)))
    throw invalid(
      name,
      'must be https (plain http only for a loopback host or one in PROVIDER_PLAIN_HTTP_HOSTS)',
    );
  if (parsed.search !== '' || parsed.hash !== '')
    throw invalid(name, 'must not carry a query string or fragment');
  return value.replace(/\/+$/, '');
}

function secret(env: Env, name: string): string | null {
  const value = read(env, name);
  if (value === undefined) return null;
  if (/[\s]/.test(value)) throw invalid(name, 'must not contain whitespace');
  return value;
}

function timeout(env: Env, name: string): number {
  const value = read(env, name);
  if (value === undefined) return PROVIDER_DEFAULTS.timeoutMs;
  if (!/^[0-9]+$/.test(value)) throw invalid(name, 'must be an integer number of milliseconds');
  const ms = Number(value);
  if (ms < 100 || ms > 120000) throw invalid(name, 'must be between 100 and 120000');
  return ms;
}

/** A duration in whole milliseconds within [0, max]; unset keeps `fallback`. 0 is allowed (the sandbox polls fast). */
function milliseconds(env: Env, name: string, fallback: number, bounds: { max: number }): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value)) throw invalid(name, 'must be an integer number of milliseconds');
  const ms = Number(value);
  if (ms > bounds.max) throw invalid(name, `must be between 0 and ${bounds.max}`);
  return ms;
}

function integratorId(env: Env, name: string): string | null {
  const value = read(env, name);
  if (value === undefined) return null;
  // Across validates the 2-byte format itself (INVALID_PARAM); failing at boot is kinder than on every quote.
  if (!/^0x[0-9a-fA-F]{4}$/.test(value)) throw invalid(name, 'must be a 2-byte hex string such as 0xdead');
  return value;
}

function address(env: Env, name: string): Address | null {
  const value = read(env, name);
  if (value === undefined) return null;
  if (!isAddress(value, { strict: false })) throw invalid(name, 'must be a 20-byte hex EVM address');
  return value;
}
