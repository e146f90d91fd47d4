import { SandboxOnlyError, UsageError } from './cli-errors';
import {
  loadSandboxManifest,
  pickSandboxUser,
  type SandboxManifest,
  sandboxChainsFor,
} from './sandbox-guard';

const manifest: SandboxManifest = {
  url: 'http://127.0.0.1:7700',
  chains: [
    { chainId: 1, name: 'ethereum', rpcUrl: 'http://127.0.0.1:8545' },
    { chainId: 8453, name: 'base', rpcUrl: 'http://localhost:8546' },
    { chainId: 42161, name: 'arbitrum', rpcUrl: 'https://arb1.example.org' },
  ],
  wallets: {
    users: [
      { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', privateKey: '0xac09' },
      { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', privateKey: '0x59c6' },
    ],
  },
};

describe('sandbox guard of the sandbox-only commands', () => {
  it('gives the manifest RPC of each action chain once, in the order met', () => {
    expect(sandboxChainsFor(manifest, [8453, 1, 8453])).toEqual([
      { chainId: 8453, name: 'base', rpcUrl: 'http://localhost:8546' },
      { chainId: 1, name: 'ethereum', rpcUrl: 'http://127.0.0.1:8545' },
    ]);
  });

  it.each<[number[], RegExp]>([
    [[10], /chain 10, which the sandbox does not run \(it runs 1, 8453, 42161\)/],
    [[1, 42161], /RPC for chain 42161 \(https:\/\/arb1\.example\.org\) is not on loopback/],
  ])('refuses chains %j', (chainIds, message) => {
    expect(() => sandboxChainsFor(manifest, chainIds)).toThrow(SandboxOnlyError);
    expect(() => sandboxChainsFor(manifest, chainIds)).toThrow(message);
  });

  it('picks users[0] by default and users[N] with --user N; refuses anything else as a usage error', () => {
    expect(pickSandboxUser(manifest, undefined)).toMatchObject({ index: 0, privateKey: '0xac09' });
    expect(pickSandboxUser(manifest, '1')).toMatchObject({
      index: 1,
      address: manifest.wallets.users[1].address,
    });
    for (const bad of ['2', '-1', '1.5', 'x', '']) {
      expect(() => pickSandboxUser(manifest, bad)).toThrow(UsageError);
    }
  });

  it('refuses without a manifest, or with a file that is not one, naming the path it looked at', () => {
    const paths = { repoRoot: '/repo', cwd: '/elsewhere' };
    const missing = () => {
      throw new Error('ENOENT: no such file');
    };
    expect(() => loadSandboxManifest({}, paths, missing)).toThrow(
      /no provider sandbox manifest at \/repo\/\.sandbox\/manifest\.json \(ENOENT/,
    );
    expect(() => loadSandboxManifest({ SANDBOX_MANIFEST_DIR: 'sb' }, paths, missing)).toThrow(
      /\/elsewhere\/sb\/manifest\.json/,
    );
    expect(() => loadSandboxManifest({}, paths, () => '{"chains":[]}')).toThrow(
      /is not a provider sandbox manifest/,
    );
    expect(loadSandboxManifest({}, paths, () => JSON.stringify(manifest))).toEqual({
      manifest,
      path: '/repo/.sandbox/manifest.json',
    });
  });
});
