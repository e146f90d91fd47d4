import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseChainsConfig } from '@svc/chains';
import { loadSandboxOptions } from './config/load-sandbox-options';
import { startSandbox, type RunningSandbox } from './start-sandbox';
import { httpJson } from './testing/sandbox-test-kit';

describe('startSandbox', () => {
  let sandbox: RunningSandbox;
  const dir = mkdtempSync(join(tmpdir(), 'provider-sandbox-'));

  beforeAll(async () => {
    const options = loadSandboxOptions({
      SANDBOX_PORT: '0',
      SANDBOX_MANIFEST_DIR: dir,
      SANDBOX_FAULTS: '[{"provider":"relay","httpStatus":503}]',
    });
    sandbox = await startSandbox({ ...options, log: () => undefined });
  });
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the manifest and a CHAINS_FILE the service can load', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ url: sandbox.url, env: sandbox.manifest.env });
    const chains = parseChainsConfig(readFileSync(sandbox.manifest.env.CHAINS_FILE, 'utf8'));
    expect(chains.map((c) => [c.chainId, c.name, c.nativeSymbol, c.confirmations])).toEqual([
      [1, 'ethereum', 'ETH', { blocks: 2 }],
      [8453, 'base', 'ETH', { blocks: 2 }],
      [42161, 'arbitrum', 'ETH', { blocks: 2 }],
    ]);
  });

  it('lists chains, tokens, contracts, funded users and the service env', async () => {
    // The only contracts the service lets each provider's calls touch: the sandbox's own, on each chain.
    type Contract = 'relayDepository' | 'acrossSpokePool' | 'cctpTokenMessenger' | 'mayanForwarder';
    const allowlist = (...contracts: Contract[]) =>
      JSON.stringify(
        Object.fromEntries(
          sandbox.chains.contracts.map((c) => [
            c.chainId,
            { targets: contracts.map((k) => c[k]), spenders: contracts.map((k) => c[k]) },
          ]),
        ),
      );
    const { status, body } = await httpJson(`${sandbox.url}/manifest`);
    expect(status).toBe(200);
    expect(body.tokens).toHaveLength(12);
    expect(body.contracts).toHaveLength(3);
    expect(body.wallets.users).toHaveLength(6);
    expect(body.wallets.users[0]).toEqual(sandbox.chains.accounts.users[0]);
    expect(body.startupMs).toBeGreaterThan(0);
    expect(body.env).toEqual({
      CHAINS_FILE: join(dir, 'chains.json'),
      RELAY_BASE_URL: `${sandbox.url}/relay`,
      RELAY_API_KEY: 'sandbox',
      ACROSS_BASE_URL: `${sandbox.url}/across`,
      MAYAN_PRICE_URL: `${sandbox.url}/mayan-price`,
      MAYAN_EXPLORER_URL: `${sandbox.url}/mayan-explorer`,
      MAYAN_API_KEY: 'sandbox-mayan',
      MAYAN_FORWARDER_ADDRESS: sandbox.chains.contracts[0].mayanForwarder,
      SERVICE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', // the deployer, anvil's account 9
      RELAY_CONTRACTS: allowlist('relayDepository'),
      // Across's USDC legs may go over CCTP (the `cctp` fault): Circle's TokenMessengerV2 is Across's too.
      ACROSS_CONTRACTS: allowlist('acrossSpokePool', 'cctpTokenMessenger'),
      MAYAN_CONTRACTS: allowlist('mayanForwarder'),
      ACROSS_MIN_POLL_INTERVAL_MS: '1000',
      RELAY_FAILURE_GRACE_MS: '10000',
    });
  });

  it('starts with the faults from SANDBOX_FAULTS in force', async () => {
    expect((await httpJson(`${sandbox.url}/manifest`)).body.faults).toEqual([
      { provider: 'relay', httpStatus: 503 },
    ]);
    expect((await httpJson(`${sandbox.url}/relay/intents/status/v3?requestId=0x01`)).status).toBe(503);
  });

  it('stops the chains and the server', async () => {
    const other = await startSandbox({ port: 0, manifestDir: null, log: () => undefined });
    const rpc = other.chains.chains[0].rpcUrl;
    await other.stop();
    await expect(fetch(`${other.url}/health`)).rejects.toThrow();
    await expect(fetch(rpc, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(existsSync(dir)).toBe(true);
  });
});
