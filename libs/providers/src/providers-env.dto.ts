import { EnvNumber, EnvSecret } from '@svc/platform';
import { IsEthereumAddress, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { IsProviderUrl, PLAIN_HTTP_HOSTS_PATTERN } from './http/plain-http-hosts';
import { RELAY_KEY_REQUESTS_PER_MINUTE } from './relay/relay-request-budget';
import { IsContractAllowlist } from './vouch/load-calldata-allowlists';

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

const KEY = { message: 'must not contain whitespace' };
const ADDRESS = { message: 'must be a 20-byte hex EVM address' };
const MILLISECONDS = { message: 'must be an integer number of milliseconds' };
const TIMEOUT_RANGE = { message: 'must be between 100 and 120000' };

/** A provider call's time-out: 100 ms to 2 min. */
function ProviderTimeout(): PropertyDecorator {
  return (target, property) => {
    EnvNumber()(target, property);
    IsInt(MILLISECONDS)(target, property);
    Min(100, TIMEOUT_RANGE)(target, property);
    Max(120_000, TIMEOUT_RANGE)(target, property);
  };
}

/** A duration in whole milliseconds within [0, max]; 0 is allowed (the sandbox polls fast). */
function Milliseconds(max: number): PropertyDecorator {
  const range = { message: `must be between 0 and ${max}` };
  return (target, property) => {
    EnvNumber()(target, property);
    IsInt(MILLISECONDS)(target, property);
    Min(0, range)(target, property);
    Max(max, range)(target, property);
  };
}

/**
 * The provider variables (relay, across, mayan), validated at boot with the service's own. Keys are never echoed
 * in a message. `providersConfig` turns them into the adapters' settings.
 */
export class ProvidersEnv {
  @IsProviderUrl()
  RELAY_BASE_URL: string = PROVIDER_DEFAULTS.relayBaseUrl;

  /** Enables actual amounts from `/requests/v3` and lifts the unauthenticated rate limit. */
  @EnvSecret()
  @IsOptional()
  @Matches(/^\S+$/, KEY)
  RELAY_API_KEY?: string;

  @ProviderTimeout()
  RELAY_TIMEOUT_MS: number = PROVIDER_DEFAULTS.timeoutMs;

  /** How long a reported `failure` must stand before the tracker takes it as final (Relay may still refund). */
  @Milliseconds(86_400_000)
  RELAY_FAILURE_GRACE_MS: number = PROVIDER_DEFAULTS.relayFailureGraceMs;

  /**
   * Requests to Relay's endpoints other than /quote (status polls, /requests/v3) this process sends per minute:
   * Relay's key allows 200 a minute in all, so with several processes tracking legs each gets its share.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(100_000)
  RELAY_REQUESTS_PER_MINUTE: number = RELAY_KEY_REQUESTS_PER_MINUTE;

  @IsOptional()
  @IsContractAllowlist()
  RELAY_CONTRACTS?: string;

  @IsProviderUrl()
  ACROSS_BASE_URL: string = PROVIDER_DEFAULTS.acrossBaseUrl;

  @EnvSecret()
  @IsOptional()
  @Matches(/^\S+$/, KEY)
  ACROSS_API_KEY?: string;

  /** Across validates the 2-byte format itself (INVALID_PARAM); failing at boot is kinder than on every quote. */
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{4}$/, { message: 'must be a 2-byte hex string such as 0xdead' })
  ACROSS_INTEGRATOR_ID?: string;

  @ProviderTimeout()
  ACROSS_TIMEOUT_MS: number = PROVIDER_DEFAULTS.timeoutMs;

  /** Never poll one leg's `/deposit/status` more often than this (Across: every 10 s, no faster). */
  @Milliseconds(600_000)
  ACROSS_MIN_POLL_INTERVAL_MS: number = PROVIDER_DEFAULTS.acrossMinPollIntervalMs;

  @IsOptional()
  @IsContractAllowlist()
  ACROSS_CONTRACTS?: string;

  @IsProviderUrl()
  MAYAN_PRICE_URL: string = PROVIDER_DEFAULTS.mayanPriceUrl;

  @IsProviderUrl()
  MAYAN_EXPLORER_URL: string = PROVIDER_DEFAULTS.mayanExplorerUrl;

  @EnvSecret()
  @IsOptional()
  @Matches(/^\S+$/, KEY)
  MAYAN_API_KEY?: string;

  @IsEthereumAddress(ADDRESS)
  MAYAN_FORWARDER_ADDRESS: string = PROVIDER_DEFAULTS.mayanForwarderAddress;

  @IsOptional()
  @IsEthereumAddress(ADDRESS)
  MAYAN_REFERRER_ADDRESS?: string;

  @ProviderTimeout()
  MAYAN_TIMEOUT_MS: number = PROVIDER_DEFAULTS.timeoutMs;

  /** Defaults to the forwarder (MAYAN_FORWARDER_ADDRESS) on every chain Mayan serves. */
  @IsOptional()
  @IsContractAllowlist()
  MAYAN_CONTRACTS?: string;

  /**
   * Chain ids (comma-separated): every provider's allowlist narrowed to these, so legs start and end on them only
   * (a deployment that reads three chains serves three). Unset: every chain of each allowlist.
   */
  @IsOptional()
  @Matches(/^\s*\d{1,12}\s*(,\s*\d{1,12}\s*)*$/, { message: 'must be comma-separated chain ids' })
  PROVIDER_CHAINS?: string;

  /** Hosts besides loopback whose provider URLs may be plain http (refused with NODE_ENV=production). */
  @IsOptional()
  @Matches(PLAIN_HTTP_HOSTS_PATTERN, { message: 'must be comma-separated host names' })
  PROVIDER_PLAIN_HTTP_HOSTS?: string;
}
