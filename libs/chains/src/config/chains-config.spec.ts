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

// What the file leaves out, the parser fills in: both chains' published default (Ethereum and Base: `safe`).
const withDefaults = [
  { ...valid.chains[0], confirmations: { tag: 'safe' } },
  { ...valid.chains[1], confirmations: { tag: 'safe' } },
];

describe('parseChainsConfig', () => {
  it('returns the chains of a valid file, each with its default confirmation policy', () => {
    expect(parseChainsConfig(JSON.stringify(valid))).toEqual(withDefaults);
  });

  it('reads confirmations, rpcUrls and quorum; an unlisted chain defaults to finalized, anvil to 2 blocks', () => {
    const parsed = parseChainsConfig(
      JSON.stringify({
        chains: [
          {
            ...valid.chains[0],
            confirmations: 'finalized',
            rpcUrls: ['https://b.example', 'wss://c.example'],
            quorum: 2,
          },
          { ...valid.chains[1], confirmations: 0 },
          { chainId: 999_999, name: 'other', rpcUrl: 'http://x.example', nativeSymbol: 'ETH' },
          { chainId: 31337, name: 'anvil', rpcUrl: 'http://127.0.0.1:8545', nativeSymbol: 'ETH' },
        ],
      }),
    );
    expect(parsed.map((c) => [c.confirmations, c.rpcUrls, c.quorum])).toEqual([
      [{ tag: 'finalized' }, ['https://b.example', 'wss://c.example'], 2],
      [{ blocks: 0 }, undefined, undefined],
      [{ tag: 'finalized' }, undefined, undefined],
      [{ blocks: 2 }, undefined, undefined],
    ]);
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
    [
      { confirmations: -1 },
      'chains[1].confirmations: must be a number of blocks (0 to 10000), "safe" or "finalized"',
    ],
    [{ confirmations: 'latest' }, 'chains[1].confirmations: must be a number of blocks'],
    [{ confirmations: 1.5 }, 'chains[1].confirmations: must be a number of blocks'],
    [{ rpcUrls: 'https://b.example' }, 'chains[1].rpcUrls: must be an array of http(s) or ws(s) URLs'],
    [{ rpcUrls: ['ftp://b.example'] }, 'chains[1].rpcUrls: must be an array of http(s) or ws(s) URLs'],
    [{ quorum: 2 }, 'chains[1].quorum: must be an integer from 1 to the number of nodes (1)'],
    [
      { quorum: 0, rpcUrls: ['https://b.example'] },
      'chains[1].quorum: must be an integer from 1 to the number of nodes (2)',
    ],
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
    expect(loadChainsFile(file)).toEqual(withDefaults);
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
