import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@svc/platform';
import { repoRoot } from '@svc/testing';
import { loadRuntime, valuesKeptOutOfLogs } from './load-runtime';

/** A chains file listing these chain ids (RPC URLs that are never called here). */
function writeChainsFile(dir: string, chainIds: number[], name = 'chains.json'): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      chains: chainIds.map((chainId) => ({
        chainId,
        name: `chain-${chainId}`,
        rpcUrl: `https://rpc-${chainId}.example/v2/key`,
        nativeSymbol: 'ETH',
      })),
    }),
  );
  return path;
}

describe('loadRuntime: provider credentials at boot', () => {
  let dir: string;
  let partnersFile: string;
  let chainsFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'runtime-'));
    chainsFile = writeChainsFile(dir, [1]);
    partnersFile = join(dir, 'partners.json');
    writeFileSync(
      partnersFile,
      JSON.stringify({
        partners: [{ partnerId: 'acme', secretEnv: 'PARTNER_ACME_SECRET', authVersion: 2, maxFeeBps: 0 }],
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => ({
    PARTNERS_FILE: partnersFile,
    PARTNER_ACME_SECRET: 'secret-0123456789abcdef',
    LOG_LEVEL: 'silent',
    RELAY_API_KEY: 'relay-key-0123456789',
    ACROSS_API_KEY: 'across-key-0123456789',
    ...extra,
  });

  it('refuses NODE_ENV=production when a provider every partner allows by default lacks its credentials', () => {
    const load = () => loadRuntime(env({ NODE_ENV: 'production' }), 'test');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/ACROSS_INTEGRATOR_ID: required[\s\S]*MAYAN_API_KEY: required/);
    expect(load).not.toThrow(/across-key|relay-key/);
  });

  it('boots the same environment outside production (the gaps are logged as warnings)', () => {
    expect(
      loadRuntime(env({ NODE_ENV: 'development' }), 'test').config.providers.across.integratorId,
    ).toBeNull();
  });

  it('boots in production with every credential', () => {
    const runtime = loadRuntime(
      env({
        NODE_ENV: 'production',
        ACROSS_INTEGRATOR_ID: '0xdead',
        MAYAN_API_KEY: 'mayan-key-0123456789',
        CHAINS_FILE: chainsFile,
        PROVIDER_CHAINS: '1',
      }),
      'test',
    );
    expect(runtime.config.production).toBe(true);
  });
});

describe('loadRuntime: nothing from development reaches production (M5)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'runtime-dev-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const production = {
    NODE_ENV: 'production',
    get CHAINS_FILE() {
      return writeChainsFile(dir, [1]);
    },
    PROVIDER_CHAINS: '1',
    LOG_LEVEL: 'silent',
    RELAY_API_KEY: 'relay-key-0123456789',
    ACROSS_API_KEY: 'across-key-0123456789',
    ACROSS_INTEGRATOR_ID: '0xdead',
    MAYAN_API_KEY: 'mayan-key-0123456789',
    PARTNER_ACME_SECRET: 'secret-0123456789abcdef',
  };
  const file = (name: string, content: object) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };
  const acme = { partnerId: 'acme', secretEnv: 'PARTNER_ACME_SECRET', authVersion: 2, maxFeeBps: 30 };

  it("refuses the repository's development partner file", () => {
    const load = () =>
      loadRuntime({ ...production, PARTNERS_FILE: join(repoRoot, 'config/partners.dev.json') }, 'test');
    expect(load).toThrow(/"development": true/);
    expect(load).toThrow(/inline secret|development/);
    expect(load).not.toThrow(/dev-only-secret/); // never the secret's value
  });

  it('refuses an inline secret, and a file marked development', () => {
    const inline = file('inline.json', {
      partners: [{ ...acme, secretEnv: undefined, secret: 'x'.repeat(32) }],
    });
    expect(() => loadRuntime({ ...production, PARTNERS_FILE: inline }, 'test')).toThrow(
      /partners\[0\]\.secret: an inline secret is refused with NODE_ENV=production/,
    );
    const marked = file('marked.json', { development: true, partners: [acme] });
    expect(() => loadRuntime({ ...production, PARTNERS_FILE: marked }, 'test')).toThrow(
      /"development": true/,
    );
  });

  it('refuses a plain-http callback URL, and sends webhooks to public addresses only unless some are allowed (N-M5)', () => {
    const plain = file('plain.json', { partners: [{ ...acme, callbackUrl: 'http://acme.example/hooks' }] });
    const recipient = { SERVICE_FEE_RECIPIENT: '0x1111111111111111111111111111111111111111' };
    expect(() => loadRuntime({ ...production, ...recipient, PARTNERS_FILE: plain }, 'test')).toThrow(
      /partners\[0\]\.callbackUrl: NODE_ENV=production sends webhooks over https only/,
    );
    const tls = file('tls.json', { partners: [{ ...acme, callbackUrl: 'https://acme.example/hooks' }] });
    const booted = loadRuntime({ ...production, ...recipient, PARTNERS_FILE: tls }, 'test');
    expect(booted.config.webhooks.allowedCallbackAddresses).toEqual([]);
    const allowing = loadRuntime(
      {
        ...production,
        ...recipient,
        PARTNERS_FILE: tls,
        WEBHOOK_ALLOWED_ADDRESSES: '10.20.0.0/16, fd00::/8',
      },
      'test',
    );
    expect(allowing.config.webhooks.allowedCallbackAddresses).toEqual(['10.20.0.0/16', 'fd00::/8']);
    expect(() =>
      loadRuntime(
        { ...production, ...recipient, PARTNERS_FILE: tls, WEBHOOK_ALLOWED_ADDRESSES: 'intranet' },
        'test',
      ),
    ).toThrow(/WEBHOOK_ALLOWED_ADDRESSES: every entry must be an IP address or a CIDR/);
  });

  it('refuses a fee recipient that is a public development account, whatever its case', () => {
    const partners = file('ok.json', { partners: [acme] });
    const load = (recipient: string) =>
      loadRuntime({ ...production, PARTNERS_FILE: partners, SERVICE_FEE_RECIPIENT: recipient }, 'test');
    expect(() => load('0xa0ee7a142d267c1f36714e4a8f75612f20a79720')).toThrow(/public development account/);
    expect(load('0x1111111111111111111111111111111111111111').config.production).toBe(true);
  });

  it('boots development with all of it', () => {
    const runtime = loadRuntime(
      {
        NODE_ENV: 'development',
        LOG_LEVEL: 'silent',
        PARTNERS_FILE: join(repoRoot, 'config/partners.dev.json'),
        SERVICE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      },
      'test',
    );
    expect(runtime.partners.map((p) => p.partnerId)).toEqual(['demo-partner', 'legacy-partner']);
  });
});

describe('loadRuntime: production guards (security review N-L3)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'runtime-guards-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const partners = (allowedProviders?: string[]) => {
    const path = join(dir, `partners-${allowedProviders?.join('-') ?? 'all'}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        partners: [
          {
            partnerId: 'acme',
            secretEnv: 'PARTNER_ACME_SECRET',
            authVersion: 2,
            maxFeeBps: 30,
            allowedProviders,
          },
        ],
      }),
    );
    return path;
  };
  const production = (extra: Record<string, string | undefined>) => ({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RELAY_API_KEY: 'relay-key-0123456789',
    ACROSS_API_KEY: 'across-key-0123456789',
    ACROSS_INTEGRATOR_ID: '0xdead',
    MAYAN_API_KEY: 'mayan-key-0123456789',
    PARTNER_ACME_SECRET: 'secret-0123456789abcdef',
    PARTNERS_FILE: partners(),
    SERVICE_FEE_RECIPIENT: '0x1111111111111111111111111111111111111111',
    CHAINS_FILE: writeChainsFile(dir, [1, 8453, 42161]),
    PROVIDER_CHAINS: '1,8453,42161',
    ...extra,
  });

  it('refuses the zero address as SERVICE_FEE_RECIPIENT (fees would be burned)', () => {
    expect(() =>
      loadRuntime(
        production({ SERVICE_FEE_RECIPIENT: '0x0000000000000000000000000000000000000000' }),
        'test',
      ),
    ).toThrow(/\n {2}SERVICE_FEE_RECIPIENT: the zero address .* refused with NODE_ENV=production/);
    expect(loadRuntime(production({}), 'test').config.quoting.serviceFeeRecipient).toBe(
      '0x1111111111111111111111111111111111111111',
    );
  });

  it("refuses no CHAINS_FILE: every fill would settle on the provider's word", () => {
    expect(() => loadRuntime(production({ CHAINS_FILE: undefined }), 'test')).toThrow(
      /\n {2}CHAINS_FILE: required with NODE_ENV=production/,
    );
    // A deliberate exception, named.
    const waived = loadRuntime(
      production({ CHAINS_FILE: undefined, PRODUCTION_OVERRIDES: 'CHAINS_FILE' }),
      'test',
    );
    expect(waived.chains.chainIds()).toEqual([]);
  });

  it('refuses a CHAINS_FILE missing a chain the enabled providers serve, naming the chains and the providers', () => {
    const ethereumOnly = writeChainsFile(dir, [1], 'ethereum.json');
    // The providers' published lists: dozens of chains, 10 (Optimism) among them for all three.
    const load = () =>
      loadRuntime(production({ CHAINS_FILE: ethereumOnly, PROVIDER_CHAINS: undefined }), 'test');
    expect(load).toThrow(/\n {2}CHAINS_FILE: does not list chains the providers serve/);
    expect(load).toThrow(/relay: [\d, ]*\b10\b/);
    expect(load).toThrow(/across: [\d, ]*\b10\b/);
    expect(load).toThrow(/mayan: [\d, ]*\b10\b/);
    expect(load).not.toThrow(/rpc-1\.example/); // never an RPC URL
    expect(() =>
      loadRuntime(production({ CHAINS_FILE: ethereumOnly, PROVIDER_CHAINS: '1,8453' }), 'test'),
    ).toThrow(
      /CHAINS_FILE: does not list chains the providers serve \(relay: 8453; across: 8453; mayan: 8453\)/,
    );
    // Only the providers an enabled partner allows count.
    const mayanOnly = production({
      PARTNERS_FILE: partners(['mayan']),
      CHAINS_FILE: ethereumOnly,
      PROVIDER_CHAINS: undefined,
    });
    expect(() => loadRuntime(mayanOnly, 'test')).toThrow(
      /CHAINS_FILE: does not list chains the providers serve \(mayan: 10, /,
    );
    // Narrowed to the chains read, or waived by name, it boots.
    expect(
      loadRuntime(production({ CHAINS_FILE: ethereumOnly, PROVIDER_CHAINS: '1' }), 'test').chains.chainIds(),
    ).toEqual([1]);
    expect(
      loadRuntime(
        production({
          CHAINS_FILE: ethereumOnly,
          PROVIDER_CHAINS: undefined,
          PRODUCTION_OVERRIDES: 'CHAINS_FILE',
        }),
        'test',
      ).config.production,
    ).toBe(true);
    // Outside production, nothing of this is required.
    expect(
      loadRuntime(
        production({ NODE_ENV: 'development', CHAINS_FILE: undefined, PROVIDER_CHAINS: undefined }),
        'test',
      ).config.production,
    ).toBe(false);
  });
});

describe('loadRuntime: values no log line shows (L8)', () => {
  it('keeps the chain RPC URLs and the EventStoreDB URL out of logs, beside partner secrets and provider keys', () => {
    const dir = mkdtempSync(join(tmpdir(), 'runtime-l8-'));
    try {
      const chainsFile = join(dir, 'chains.json');
      writeFileSync(
        chainsFile,
        JSON.stringify({
          chains: [
            {
              chainId: 1,
              name: 'ethereum',
              rpcUrl: 'https://eth.example/v2/node-key-0123',
              nativeSymbol: 'ETH',
            },
          ],
        }),
      );
      const runtime = loadRuntime(
        {
          NODE_ENV: 'development',
          LOG_LEVEL: 'silent',
          PARTNERS_FILE: join(repoRoot, 'config/partners.dev.json'),
          SERVICE_FEE_RECIPIENT: '0x1111111111111111111111111111111111111111',
          CHAINS_FILE: chainsFile,
          EVENTSTOREDB_URL: 'kurrentdb://admin:store-password@db.example:2113?tls=true',
        },
        'test',
      );
      const values = valuesKeptOutOfLogs(runtime.config, runtime.partners, runtime.chains);
      expect(values).toEqual(
        expect.arrayContaining([
          'https://eth.example/v2/node-key-0123',
          'kurrentdb://admin:store-password@db.example:2113?tls=true',
          ...runtime.partners.map((p) => p.secret),
        ]),
      );
      // A rotation's previous secret is kept out as well.
      const rotating = [{ ...runtime.partners[0], previousSecret: 'old-secret-kept-out-0123' }];
      expect(valuesKeptOutOfLogs(runtime.config, rotating, runtime.chains)).toContain(
        'old-secret-kept-out-0123',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
