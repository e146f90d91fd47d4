import { ConfigError } from '@svc/platform';
import { loadProvidersConfig, providerSecrets } from './providers-config';
import { ACROSS_CONTRACTS } from './vouch/across-contracts';
import { mayanContracts } from './vouch/mayan-contracts';
import { RELAY_CONTRACTS } from './vouch/relay-contracts';

describe('loadProvidersConfig', () => {
  it("defaults to the production endpoints, no keys, 8 s time-outs, the providers' polling guidance", () => {
    expect(loadProvidersConfig({})).toEqual({
      relay: {
        baseUrl: 'https://api.relay.link',
        apiKey: null,
        timeoutMs: 8000,
        failureGraceMs: 600_000,
        // Relay's 200 a minute for one key, all of it for this process unless set.
        requestsPerMinute: 200,
      },
      across: {
        baseUrl: 'https://app.across.to/api',
        apiKey: null,
        integratorId: null,
        timeoutMs: 8000,
        minPollIntervalMs: 10_000,
      },
      mayan: {
        priceUrl: 'https://price-api.mayan.finance/v3',
        explorerUrl: 'https://explorer-api.mayan.finance/v3',
        apiKey: null,
        forwarderAddress: '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2',
        referrerAddress: null,
        timeoutMs: 8000,
      },
      calldata: {
        relay: RELAY_CONTRACTS,
        across: ACROSS_CONTRACTS,
        mayan: mayanContracts('0x337685fdaB40D39bd02028545a4FfA7D287cC3E2'),
      },
      plainHttpHosts: [],
    });
  });

  it('reads every variable; base URLs may carry a path prefix and lose a trailing slash', () => {
    const config = loadProvidersConfig({
      RELAY_BASE_URL: 'http://127.0.0.1:7000/relay/',
      RELAY_API_KEY: 'rk',
      RELAY_TIMEOUT_MS: '2500',
      RELAY_FAILURE_GRACE_MS: '300000',
      RELAY_REQUESTS_PER_MINUTE: '50',
      ACROSS_BASE_URL: 'http://127.0.0.1:7000/across/api',
      ACROSS_API_KEY: 'ak',
      ACROSS_INTEGRATOR_ID: '0xdead',
      ACROSS_TIMEOUT_MS: '3000',
      ACROSS_MIN_POLL_INTERVAL_MS: '250',
      MAYAN_PRICE_URL: 'http://127.0.0.1:7000/mayan/price/v3',
      MAYAN_EXPLORER_URL: 'http://127.0.0.1:7000/mayan/explorer/v3',
      MAYAN_API_KEY: 'mk',
      MAYAN_FORWARDER_ADDRESS: '0x1111111111111111111111111111111111111111',
      MAYAN_REFERRER_ADDRESS: '0x2222222222222222222222222222222222222222',
      MAYAN_TIMEOUT_MS: '4000',
    });
    expect(config).toEqual({
      relay: {
        baseUrl: 'http://127.0.0.1:7000/relay',
        apiKey: 'rk',
        timeoutMs: 2500,
        failureGraceMs: 300_000,
        requestsPerMinute: 50,
      },
      across: {
        baseUrl: 'http://127.0.0.1:7000/across/api',
        apiKey: 'ak',
        integratorId: '0xdead',
        timeoutMs: 3000,
        minPollIntervalMs: 250,
      },
      mayan: {
        priceUrl: 'http://127.0.0.1:7000/mayan/price/v3',
        explorerUrl: 'http://127.0.0.1:7000/mayan/explorer/v3',
        apiKey: 'mk',
        forwarderAddress: '0x1111111111111111111111111111111111111111',
        referrerAddress: '0x2222222222222222222222222222222222222222',
        timeoutMs: 4000,
      },
      // Mayan's calls go to the forwarder the adapter builds them for.
      calldata: {
        relay: RELAY_CONTRACTS,
        across: ACROSS_CONTRACTS,
        mayan: mayanContracts('0x1111111111111111111111111111111111111111'),
      },
      plainHttpHosts: [],
    });
  });

  it('treats empty variables as unset', () => {
    expect(
      loadProvidersConfig({ RELAY_API_KEY: '', RELAY_BASE_URL: ' ', RELAY_FAILURE_GRACE_MS: '' }).relay,
    ).toEqual({
      baseUrl: 'https://api.relay.link',
      apiKey: null,
      timeoutMs: 8000,
      failureGraceMs: 600_000,
      requestsPerMinute: 200,
    });
  });

  it('allows 0 for the failure grace and the poll interval (a sandbox that settles at once)', () => {
    const config = loadProvidersConfig({ RELAY_FAILURE_GRACE_MS: '0', ACROSS_MIN_POLL_INTERVAL_MS: '0' });
    expect(config.relay.failureGraceMs).toBe(0);
    expect(config.across.minPollIntervalMs).toBe(0);
  });

  it.each([
    ['RELAY_BASE_URL', 'api.relay.link'],
    ['ACROSS_BASE_URL', 'ftp://app.across.to/api'],
    ['MAYAN_PRICE_URL', 'https://price-api.mayan.finance/v3?apiKey=x'],
    ['RELAY_TIMEOUT_MS', '8s'],
    ['ACROSS_TIMEOUT_MS', '50'],
    ['MAYAN_TIMEOUT_MS', '1000000'],
    ['ACROSS_INTEGRATOR_ID', 'dead'],
    ['ACROSS_INTEGRATOR_ID', '0xdeadbeef'],
    ['RELAY_FAILURE_GRACE_MS', '10m'],
    ['RELAY_FAILURE_GRACE_MS', '-1'],
    ['RELAY_FAILURE_GRACE_MS', '86400001'],
    ['RELAY_REQUESTS_PER_MINUTE', '0'],
    ['RELAY_REQUESTS_PER_MINUTE', '2.5'],
    ['ACROSS_MIN_POLL_INTERVAL_MS', '10.5'],
    ['ACROSS_MIN_POLL_INTERVAL_MS', '600001'],
    ['MAYAN_FORWARDER_ADDRESS', '0x1234'],
    ['MAYAN_REFERRER_ADDRESS', 'FC4eXxkyrMPTjiYUpp4EAnkmwMbQyZ6NDCh1kfLn6vsf'],
  ])('a bad %s (%s) stops with a ConfigError naming it', (name, value) => {
    expect(() => loadProvidersConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadProvidersConfig({ [name]: value })).toThrow(name);
  });

  it.each([
    ['RELAY_BASE_URL', 'http://api.relay.link'],
    ['ACROSS_BASE_URL', 'http://app.across.to/api'],
    ['MAYAN_PRICE_URL', 'http://price-api.mayan.finance/v3'],
    ['MAYAN_EXPLORER_URL', 'http://10.0.0.5:7700/mayan-explorer'],
  ])('refuses plain http to a host that is not loopback: %s=%s', (name, value) => {
    expect(() => loadProvidersConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadProvidersConfig({ [name]: value })).toThrow(`${name}: must be https`);
  });

  it('allows plain http on loopback, and to the hosts PROVIDER_PLAIN_HTTP_HOSTS names', () => {
    for (const host of ['127.0.0.1:7700', 'localhost:7700', '[::1]:7700', '127.1.2.3'])
      expect(loadProvidersConfig({ RELAY_BASE_URL: `http://${host}/relay` }).relay.baseUrl).toBe(
        `http://${host}/relay`,
      );
    const config = loadProvidersConfig({
      ACROSS_BASE_URL: 'http://provider-sandbox:7700/across',
      PROVIDER_PLAIN_HTTP_HOSTS: 'provider-sandbox, other-host',
    });
    expect(config.across.baseUrl).toBe('http://provider-sandbox:7700/across');
    expect(config.plainHttpHosts).toEqual(['provider-sandbox', 'other-host']);
    expect(() => loadProvidersConfig({ PROVIDER_PLAIN_HTTP_HOSTS: 'http://x' })).toThrow(
      'PROVIDER_PLAIN_HTTP_HOSTS',
    );
  });

  it('narrows every allowlist to PROVIDER_CHAINS, the chains a deployment reads (security review N-L3)', () => {
    const { calldata } = loadProvidersConfig({ PROVIDER_CHAINS: '1, 8453,42161' });
    expect([...calldata.relay.keys()].sort((a, b) => a - b)).toEqual([1, 8453, 42161]);
    expect([...calldata.across.keys()].sort((a, b) => a - b)).toEqual([1, 8453, 42161]);
    expect([...calldata.mayan.keys()].sort((a, b) => a - b)).toEqual([1, 8453, 42161]);
    expect(calldata.relay.get(1)).toEqual(RELAY_CONTRACTS.get(1));
    expect(() => loadProvidersConfig({ PROVIDER_CHAINS: 'ethereum' })).toThrow(
      /PROVIDER_CHAINS: must be comma-separated chain ids/,
    );
  });

  it('never echoes a key in its message', () => {
    expect(() => loadProvidersConfig({ RELAY_API_KEY: 'sk live 123' })).toThrow(/RELAY_API_KEY/);
    expect(() => loadProvidersConfig({ RELAY_API_KEY: 'sk live 123' })).not.toThrow(/sk live/);
  });
});

describe('providerSecrets', () => {
  it("is every provider's credential that is set, whatever the provider", () => {
    const config = loadProvidersConfig({ RELAY_API_KEY: 'relay-secret', MAYAN_API_KEY: 'mayan-secret' });
    expect(providerSecrets(config).sort()).toEqual(['mayan-secret', 'relay-secret']);
    expect(providerSecrets({ ...config, fourth: { apiKey: 'fourth-secret' } } as typeof config)).toContain(
      'fourth-secret',
    );
  });
});
