import { ConfigError } from './cli-errors';
import { loadCliConfig } from './load-cli-config';

const paths = { repoRoot: '/repo', cwd: '/work' };
const file = JSON.stringify({
  partners: [
    { partnerId: 'demo', secret: 'demo-secret', authVersion: 2 },
    { partnerId: 'legacy', secret: 'legacy-secret', authVersion: 1 },
    { partnerId: 'vault', secretEnv: 'VAULT_SECRET', authVersion: 2 },
    { partnerId: 'bare' },
  ],
});
function files(contents: Record<string, string>) {
  const read: string[] = [];
  const readFile = (path: string) => {
    read.push(path);
    if (contents[path] === undefined) throw new Error(`ENOENT: ${path}`);
    return contents[path];
  };
  return { read, readFile };
}

describe('loadCliConfig', () => {
  it('defaults to the first partner of config/partners.dev.json under the repo root', () => {
    const fs = files({ '/repo/config/partners.dev.json': file });
    expect(loadCliConfig({}, paths, fs.readFile)).toEqual({
      serviceUrl: 'http://127.0.0.1:3000',
      partnerId: 'demo',
      secret: 'demo-secret',
      authVersion: 2,
      source: '/repo/config/partners.dev.json',
      development: false,
    });
  });

  it('says whether the partner is an inline one of a file marked "development": true (what the sandbox commands check)', () => {
    const marked = JSON.stringify({ development: true, ...JSON.parse(file) });
    const fs = files({ '/repo/config/partners.dev.json': marked, '/work/plain.json': file });
    expect(loadCliConfig({}, paths, fs.readFile).development).toBe(true);
    expect(loadCliConfig({ PARTNER_ID: 'vault', VAULT_SECRET: 's3' }, paths, fs.readFile).development).toBe(
      false,
    );
    expect(loadCliConfig({ PARTNERS_FILE: 'plain.json' }, paths, fs.readFile).development).toBe(false);
    expect(loadCliConfig({ PARTNER_ID: 'p', PARTNER_SECRET: 's' }, paths, fs.readFile).development).toBe(
      false,
    );
  });

  it('picks PARTNER_ID from PARTNERS_FILE (relative to the working directory), with its auth version', () => {
    const fs = files({ '/work/p.json': file });
    const config = loadCliConfig(
      { PARTNERS_FILE: 'p.json', PARTNER_ID: 'legacy', SERVICE_URL: 'https://x.test/base' },
      paths,
      fs.readFile,
    );
    expect(config).toMatchObject({
      partnerId: 'legacy',
      secret: 'legacy-secret',
      authVersion: 1,
      serviceUrl: 'https://x.test/base',
    });
  });

  it('reads the secret from the variable named by secretEnv', () => {
    const fs = files({ '/repo/config/partners.dev.json': file });
    expect(loadCliConfig({ PARTNER_ID: 'vault', VAULT_SECRET: 's3' }, paths, fs.readFile).secret).toBe('s3');
  });

  it('takes everything from the environment when PARTNER_SECRET is set, without reading a file', () => {
    const fs = files({});
    expect(loadCliConfig({ PARTNER_ID: 'p', PARTNER_SECRET: 's' }, paths, fs.readFile)).toMatchObject({
      partnerId: 'p',
      secret: 's',
      authVersion: 2,
      source: 'env',
    });
    expect(
      loadCliConfig({ PARTNER_ID: 'p', PARTNER_SECRET: 's', PARTNER_AUTH_VERSION: '1' }, paths, fs.readFile)
        .authVersion,
    ).toBe(1);
    expect(fs.read).toEqual([]);
  });

  it('lets PARTNER_AUTH_VERSION override the file', () => {
    const fs = files({ '/repo/config/partners.dev.json': file });
    expect(loadCliConfig({ PARTNER_AUTH_VERSION: '1' }, paths, fs.readFile).authVersion).toBe(1);
  });

  it.each<[string, Record<string, string>, Record<string, string>, RegExp]>([
    ['a bad SERVICE_URL', { SERVICE_URL: 'ftp://x' }, {}, /SERVICE_URL/],
    ['a bad PARTNER_AUTH_VERSION', { PARTNER_AUTH_VERSION: '3' }, {}, /PARTNER_AUTH_VERSION must be 1 or 2/],
    ['PARTNER_SECRET without PARTNER_ID', { PARTNER_SECRET: 's' }, {}, /PARTNER_ID is required/],
    ['a missing partners file', {}, {}, /cannot read partners from \/repo\/config\/partners.dev.json/],
    [
      'a file without partners',
      {},
      { '/repo/config/partners.dev.json': '{"partners":[]}' },
      /no "partners" array/,
    ],
    [
      'an unknown PARTNER_ID',
      { PARTNER_ID: 'nobody' },
      { '/repo/config/partners.dev.json': file },
      /PARTNER_ID nobody is not in/,
    ],
    [
      'an unset secretEnv',
      { PARTNER_ID: 'vault' },
      { '/repo/config/partners.dev.json': file },
      /VAULT_SECRET, which is not set/,
    ],
    [
      'no secret at all',
      { PARTNER_ID: 'bare' },
      { '/repo/config/partners.dev.json': file },
      /neither secret nor secretEnv/,
    ],
  ])('refuses %s with a message naming it', (_label, env, contents, message) => {
    expect(() => loadCliConfig(env, paths, files(contents).readFile)).toThrow(ConfigError);
    expect(() => loadCliConfig(env, paths, files(contents).readFile)).toThrow(message);
  });

  it('never puts the secret in an error message', () => {
    const contents = {
      '/repo/config/partners.dev.json': JSON.stringify({
        partners: [{ partnerId: 'x', secret: 'TOP-SECRET', authVersion: 7 }],
      }),
    };
    expect(() => loadCliConfig({}, paths, files(contents).readFile)).toThrow(
      /authVersion in .* must be 1 or 2, got 7/,
    );
    try {
      loadCliConfig({}, paths, files(contents).readFile);
    } catch (error) {
      expect((error as Error).message).not.toContain('TOP-SECRET');
    }
  });
});
