import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type PartnerClient } from '@svc/partner-client';
import { type WalletPartChain } from '@svc/testing';
import { SandboxOnlyError, UsageError } from './cli-errors';
import { type CliConfig } from './load-cli-config';

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
const isLoopback = (host: string) => LOOPBACK.has(host) || /^127(\.\d{1,3}){3}$/.test(host);

/**
 * The service the sandbox-only commands talk to must be a development one (security review N-L5): they report anvil
 * hashes signed with public keys, and the sandbox reuses real chain ids, so a real service would get real quotes and
 * attempts. Accepted: a SERVICE_URL on loopback (`npm start`, compose's published ports), or one whose GET /ping
 * authenticates the partner of a partners file marked `"development": true` with its inline secret, which no service
 * with NODE_ENV=production boots with. Anything else is refused before any other request.
 */
export async function checkSandboxService(
  config: Pick<CliConfig, 'serviceUrl' | 'partnerId' | 'source' | 'development'>,
  client: Pick<PartnerClient, 'ping'>,
): Promise<void> {
  if (isLoopback(new URL(config.serviceUrl).hostname)) return;
  const refused = `SERVICE_URL ${config.serviceUrl} is not on loopback`;
  const why =
    'these commands sign with the sandbox’s public development keys, and a real service would take their quotes and ' +
    'attempts for real ones: point SERVICE_URL at the local service (npm start: http://127.0.0.1:3000)';
  if (!config.development) {
    throw new SandboxOnlyError(
      `${refused}: ${why}, or sign as a partner of a partners file marked "development": true (PARTNERS_FILE, ` +
        `not PARTNER_SECRET), which only a development service accepts`,
    );
  }
  let answer: { status: number; body: unknown };
  try {
    answer = await client.ping();
  } catch (error) {
    throw new SandboxOnlyError(
      `${refused} and its /ping did not answer (${(error as Error).message.split('\n')[0]}): ${why}`,
    );
  }
  const partnerId = (answer.body as { partnerId?: unknown } | null)?.partnerId;
  if (answer.status !== 200 || partnerId !== config.partnerId) {
    throw new SandboxOnlyError(
      `${refused} and its /ping answered ${answer.status} to development partner ${config.partnerId} of ` +
        `${config.source}, so it is not a development service: ${why}`,
    );
  }
}

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
    if (!isLoopback(host)) {
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
