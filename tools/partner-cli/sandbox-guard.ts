import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type WalletPartChain } from '@svc/testing';
import { SandboxOnlyError, UsageError } from './cli-errors';

/** The parts of the provider sandbox's manifest (docs/sandbox.md) the sandbox-only commands use. */
export interface SandboxManifest {
  url: string;
  chains: WalletPartChain[];
  wallets: { users: { address: string; privateKey: string }[] };
}

/**
 * The manifest `npm start` / `npm run sandbox` writes (`SANDBOX_MANIFEST_DIR`, default `.sandbox/`). Without one the
 * sandbox-only commands refuse: the funded wallets' keys are anvil's public development keys.
 */
export function loadSandboxManifest(
  env: Record<string, string | undefined>,
  paths: { repoRoot: string; cwd: string },
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { manifest: SandboxManifest; path: string } {
  const dir = env.SANDBOX_MANIFEST_DIR
    ? resolve(paths.cwd, env.SANDBOX_MANIFEST_DIR)
    : join(paths.repoRoot, '.sandbox');
  const path = join(dir, 'manifest.json');
  let manifest: SandboxManifest;
  try {
    manifest = JSON.parse(readFile(path)) as SandboxManifest;
  } catch (error) {
    throw new SandboxOnlyError(
      `no provider sandbox manifest at ${path} (${(error as Error).message.split('\n')[0]}). This command signs ` +
        'with the sandbox’s public development keys and only runs against the local sandbox: start it with ' +
        '`npm start` (or set SANDBOX_MANIFEST_DIR to its manifest directory)',
    );
  }
  if (!Array.isArray(manifest?.chains) || !Array.isArray(manifest?.wallets?.users)) {
    throw new SandboxOnlyError(`${path} is not a provider sandbox manifest (no chains or wallets.users)`);
  }
  return { manifest, path };
}

/** `--user N` (default 0): the sandbox's funded user wallet N. */
export function pickSandboxUser(
  manifest: SandboxManifest,
  user: string | undefined,
): { index: number; address: string; privateKey: `0x${string}` } {
  const index = user === undefined ? 0 : Number(user);
  if (!/^\d+$/.test(user ?? '0') || !Number.isSafeInteger(index)) {
    throw new UsageError(`--user takes a wallet index (0, 1, …), got ${user}`);
  }
  const entry = manifest.wallets.users[index];
  if (!entry) {
    throw new UsageError(
      `--user ${index}: the sandbox has ${manifest.wallets.users.length} funded users (0 to ${manifest.wallets.users.length - 1})`,
    );
  }
  return { index, address: entry.address, privateKey: entry.privateKey as `0x${string}` };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The sandbox chains the chain actions run on. Refuses any chain the manifest does not list and any RPC URL that is
 * not on loopback: a dev key must never sign for a real chain (the sandbox reuses real chain ids).
 */
export function sandboxChainsFor(manifest: SandboxManifest, chainIds: readonly number[]): WalletPartChain[] {
  return [...new Set(chainIds)].map((chainId) => {
    const chain = manifest.chains.find((c) => c.chainId === chainId);
    if (!chain) {
      throw new SandboxOnlyError(
        `a chain action is on chain ${chainId}, which the sandbox does not run (it runs ${manifest.chains
          .map((c) => c.chainId)
          .join(', ')}): refusing to send it`,
      );
    }
    const host = URL.canParse(chain.rpcUrl) ? new URL(chain.rpcUrl).hostname : '';
    if (!LOOPBACK.has(host)) {
      throw new SandboxOnlyError(
        `the manifest's RPC for chain ${chainId} (${chain.rpcUrl}) is not on loopback: refusing to sign with a development key`,
      );
    }
    return { chainId, name: chain.name, rpcUrl: chain.rpcUrl };
  });
}

/** Asks each RPC what it is: it must be anvil and report the chain id the manifest gives it. */
export async function probeSandboxChains(
  chains: readonly WalletPartChain[],
  fetchFn: typeof fetch = fetch,
): Promise<void> {
  for (const chain of chains) {
    const call = async (method: string): Promise<unknown> => {
      try {
        const res = await fetchFn(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
          signal: AbortSignal.timeout(5000),
        });
        return ((await res.json()) as { result?: unknown }).result;
      } catch (error) {
        throw new SandboxOnlyError(
          `the sandbox chain ${chain.chainId} at ${chain.rpcUrl} does not answer (${(error as Error).message}): is npm start running?`,
        );
      }
    };
    const [client, id] = [await call('web3_clientVersion'), await call('eth_chainId')];
    if (typeof client !== 'string' || !client.toLowerCase().startsWith('anvil')) {
      throw new SandboxOnlyError(
        `${chain.rpcUrl} is ${String(client)}, not the sandbox's anvil: refusing to sign with a development key`,
      );
    }
    if (typeof id !== 'string' || Number(BigInt(id)) !== chain.chainId) {
      throw new SandboxOnlyError(
        `${chain.rpcUrl} reports chain id ${String(id)}, the manifest says ${chain.chainId}`,
      );
    }
  }
}
