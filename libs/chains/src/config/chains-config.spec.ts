import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '@svc/platform';
import { parseChainsConfig } from './chains-config';
import { loadChainsFile } from './load-chains-file';

const valid = {
  chains: [
    { chainId: 1, name: 'ethereum', rpcUrl: 'https://eth.example/v2/secret-key', nativeSymbol: 'ETH' },
    { chainId: 8453, name: 'base', rpcUrl: 'wss://base.example/ws', nativeSymbol: 'ETH' },
  ],
};

function problemsOf(json: unknown): string {
  try {
    parseChainsConfig(typeof json === 'string' ? json : JSON.stringify(json));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const withChain = (patch: Record<string, unknown>) => ({
  chains: [valid.chains[0], { ...valid.chains[1], ...patch }],
});

describe('parseChainsConfig', () => {
  it('returns the chains of a valid file', () => {
    expect(parseChainsConfig(JSON.stringify(valid))).toEqual(valid.chains);
  });

  it.each([
    [{ chainId: 0 }, 'chains[1].chainId: must be a positive integer'],
    [{ chainId: 1.5 }, 'chains[1].chainId: must be a positive integer'],
    [{ chainId: '8453' }, 'chains[1].chainId: must be a positive integer'],
    [{ chainId: 1 }, 'chains[1].chainId: duplicate chainId 1 (also chains[0])'],
    [{ name: ' ' }, 'chains[1].name: must be a non-empty string'],
    [{ nativeSymbol: '' }, 'chains[1].nativeSymbol: must be a non-empty string'],
    [{ rpcUrl: 'ftp://base.example' }, 'chains[1].rpcUrl: must be an http(s) or ws(s) URL'],
    [{ rpcUrl: 'base.example:8545' }, 'chains[1].rpcUrl: must be an http(s) or ws(s) URL'],
  ])('names the bad field: %j', (patch, message) => {
    expect(problemsOf(withChain(patch))).toContain(message);
  });

  it('reports every problem at once, and never echoes an RPC URL', () => {
    const message = problemsOf({
      chains: [{ chainId: -1, name: '', rpcUrl: 'mailto:secret-key@x', nativeSymbol: 'ETH' }, 'base'],
    });
    expect(message).toBe(
      'CHAINS_FILE is invalid:\n' +
        '  chains[0].chainId: must be a positive integer\n' +
        '  chains[0].name: must be a non-empty string\n' +
        '  chains[0].rpcUrl: must be an http(s) or ws(s) URL\n' +
        '  chains[1]: must be an object',
    );
  });

  it('rejects a file that is not JSON, or holds no chains', () => {
    expect(problemsOf('{"chains": [')).toMatch(/^CHAINS_FILE: not valid JSON/);
    expect(problemsOf({ chains: [] })).toContain('chains: must be a non-empty array');
    expect(problemsOf([valid])).toContain('chains: must be a non-empty array');
  });
});

describe('loadChainsFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chains-'));

  it('reads and validates the file', () => {
    const file = path.join(dir, 'chains.json');
    writeFileSync(file, JSON.stringify(valid));
    expect(loadChainsFile(file)).toEqual(valid.chains);
    writeFileSync(file, JSON.stringify(withChain({ chainId: 'x' })));
    expect(() => loadChainsFile(file)).toThrow(`CHAINS_FILE ${file} is invalid:\n  chains[1].chainId`);
  });

  it('says which file cannot be read', () => {
    const missing = path.join(dir, 'missing.json');
    expect(() => loadChainsFile(missing)).toThrow(
      new ConfigError(`CHAINS_FILE: cannot read ${missing} (ENOENT)`),
    );
  });
});
