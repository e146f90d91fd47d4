import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@svc/platform';
import { repoRoot } from '@svc/testing';
import { loadRuntime, valuesKeptOutOfLogs } from './load-runtime';

describe('loadRuntime: provider credentials at boot', () => {
  let dir: string;
  let partnersFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'runtime-'));
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
      env({ NODE_ENV: 'production', ACROSS_INTEGRATOR_ID: '0xdead', MAYAN_API_KEY: 'mayan-key-0123456789' }),
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
