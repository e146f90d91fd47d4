import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@svc/platform';
import { loadRuntime } from './load-runtime';

describe('loadRuntime: provider credentials at boot', () => {
  let dir: string;
  let partnersFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'runtime-'));
    partnersFile = join(dir, 'partners.json');
    writeFileSync(
      partnersFile,
      JSON.stringify({
        partners: [{ partnerId: 'acme', secret: 'secret-0123456789abcdef', authVersion: 2, maxFeeBps: 0 }],
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => ({
    PARTNERS_FILE: partnersFile,
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
