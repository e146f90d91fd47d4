import { loadSandboxOptions } from './load-sandbox-options';
import { SandboxConfigError } from './sandbox-config-error';

describe('loadSandboxOptions', () => {
  it('defaults to port 7700, a 1500 ms fill delay and 250 ms polling, without faults', () => {
    expect(loadSandboxOptions({})).toEqual({ port: 7700, fillDelayMs: 1500, pollIntervalMs: 250 });
  });

  it('reads every SANDBOX_ variable', () => {
    const options = loadSandboxOptions({
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_FILL_DELAY_MS: '50',
      SANDBOX_FAILURE_HOLD_MS: '400',
      SANDBOX_POLL_MS: '20',
      SANDBOX_MANIFEST_DIR: '/tmp/x',
      SANDBOX_CHAIN_PORTS: '1=8545, 8453=8546',
      SANDBOX_CHAIN_HOST: '0.0.0.0',
      SANDBOX_PUBLIC_HOST: 'provider-sandbox',
      SANDBOX_FAULTS:
        '[{"provider":"relay","httpStatus":503},{"provider":"mayan","refund":true,"endpoints":"status"}]',
    });
    expect(options).toEqual({
      port: 0,
      host: '0.0.0.0',
      fillDelayMs: 50,
      failureHoldMs: 400,
      pollIntervalMs: 20,
      manifestDir: '/tmp/x',
      chainPorts: { 1: 8545, 8453: 8546 },
      chainHost: '0.0.0.0',
      publicHost: 'provider-sandbox',
      faults: [
        { provider: 'relay', httpStatus: 503 },
        { provider: 'mayan', refund: true, endpoints: 'status' },
      ],
    });
  });

  it('refuses a SANDBOX_PUBLIC_HOST that is not a host name', () => {
    expect(() => loadSandboxOptions({ SANDBOX_PUBLIC_HOST: 'http://x:1' })).toThrow(
      'SANDBOX_PUBLIC_HOST: must be a host name or IPv4 address',
    );
  });

  it('reads SANDBOX_EXTRA_TOKENS, off by default and when 0', () => {
    expect(loadSandboxOptions({ SANDBOX_EXTRA_TOKENS: '21' }).extraTokens).toBe(21);
    expect(loadSandboxOptions({ SANDBOX_EXTRA_TOKENS: '0' })).not.toHaveProperty('extraTokens');
  });

  it.each([
    {
      env: { SANDBOX_EXTRA_TOKENS: '100' },
      message: 'SANDBOX_EXTRA_TOKENS: must be an integer from 0 to 99',
    },
    { env: { SANDBOX_PORT: '70000' }, message: 'SANDBOX_PORT: must be an integer from 0 to 65535' },
    { env: { SANDBOX_FILL_DELAY_MS: '-1' }, message: 'SANDBOX_FILL_DELAY_MS: must be an integer' },
    { env: { SANDBOX_FAILURE_HOLD_MS: '1.5' }, message: 'SANDBOX_FAILURE_HOLD_MS: must be an integer' },
    {
      env: { SANDBOX_FAULTS: '{"provider":"lifi"}' },
      message: 'SANDBOX_FAULTS: provider: must be one of relay, across, mayan',
    },
    {
      env: { SANDBOX_FAULTS: '[{"provider":"relay","latency":5}]' },
      message: 'SANDBOX_FAULTS: [0].latency: unknown fault field',
    },
    {
      env: { SANDBOX_FAULTS: '[{"provider":"across","routeUnavailableTokens":["USDC"]}]' },
      message: 'routeUnavailableTokens: must be an array of addresses',
    },
    { env: { SANDBOX_FAULTS: 'not json' }, message: 'SANDBOX_FAULTS: ' },
    { env: { SANDBOX_CHAIN_PORTS: 'ethereum=8545' }, message: 'SANDBOX_CHAIN_PORTS: must look like' },
  ])('stops on $env naming the variable', ({ env, message }) => {
    expect(() => loadSandboxOptions(env)).toThrow(SandboxConfigError);
    expect(() => loadSandboxOptions(env)).toThrow(message);
  });
});
