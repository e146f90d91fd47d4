import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadChainsFile } from '@svc/chains';

/** How long each sandbox chain has to answer eth_chainId before the sandbox counts as not running. */
const PROBE_TIMEOUT_MS = 1500;

/**
 * The provider sandbox's chains file, when the sandbox runs (issue 25 item 3): `npm start` writes the service's
 * CHAINS_FILE to `.sandbox/chains.json` (SANDBOX_MANIFEST_DIR when set), and the audit's chain checks read the same
 * chains without being told. Running means every chain in it answers eth_chainId with its own id: a file left by an
 * earlier run names chains that are gone. `path: null` says why not.
 */
export async function findSandboxChains(
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<{ path: string; reason: null } | { path: null; reason: string }> {
  const dir = env.SANDBOX_MANIFEST_DIR ? resolve(cwd, env.SANDBOX_MANIFEST_DIR) : join(cwd, '.sandbox');
  const path = join(dir, 'chains.json');
  if (!existsSync(path)) return { path: null, reason: `no sandbox chains file at ${path}` };
  const chains = loadChainsFile(path);
  for (const chain of chains) {
    const answered = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    }).then(
      async (res) => ((await res.json()) as { result?: string }).result,
      () => undefined,
    );
    if (answered === undefined || Number(answered) !== chain.chainId) {
      return {
        path: null,
        reason: `${path} names chain ${chain.chainId} at ${chain.rpcUrl}, which does not answer: the sandbox is not running`,
      };
    }
  }
  return { path, reason: null };
}
