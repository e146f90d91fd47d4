import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../process/child-process';

export interface SandboxManifestView {
  url: string;
  env: Record<string, string>;
  chains: { chainId: number; name: string; rpcUrl: string; nativeSymbol: string }[];
  tokens: { chainId: number; symbol: string; address: string; decimals: number }[];
  wallets: { users: { address: string; privateKey: string }[] };
}

export interface SandboxProcess {
  manifest: SandboxManifestView;
  /** Replaces every fault (`[]` clears them): the sandbox's `POST`/`DELETE /faults`. */
  setFaults(faults: Record<string, unknown>[]): Promise<void>;
  /** Replaces the chain's last `depth` blocks by empty ones (the sandbox's `POST /reorg`): their transactions are gone. */
  reorg(chainId: number, depth: number): Promise<{ blockNumber: number; blockHash: string }>;
  token(chainId: number, symbol: string): string;
  stop(): Promise<void>;
}

/**
 * The provider sandbox as its own process (`npm run sandbox` on free ports, manifest in a temp dir), for tests of
 * apps that may not import the sandbox app itself. Resolves once the sandbox printed its environment.
 */
export async function startSandboxProcess(env: Record<string, string> = {}): Promise<SandboxProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-'));
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'tools', 'run-ts.js'), 'apps/provider-sandbox/src/main.ts'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        SANDBOX_PORT: '0',
        SANDBOX_MANIFEST_DIR: dir,
        SANDBOX_FILL_DELAY_MS: '100',
        SANDBOX_POLL_MS: '50',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await ready(child, 30_000);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as SandboxManifestView;
  return {
    manifest,
    async setFaults(faults) {
      // POST merges per provider; clear first so the set in force is exactly `faults`.
      const cleared = await fetch(`${manifest.url}/faults`, { method: 'DELETE' });
      if (!cleared.ok) throw new Error(`sandbox refused to clear faults: ${cleared.status}`);
      if (faults.length === 0) return;
      const set = await fetch(`${manifest.url}/faults`, {
        method: 'POST',
        body: JSON.stringify(faults),
        headers: { 'content-type': 'application/json' },
      });
      if (!set.ok) throw new Error(`sandbox refused faults: ${set.status} ${await set.text()}`);
    },
    reorg: (chainId, depth) => reorgSandboxChain(manifest.url, chainId, depth),
    token(chainId, symbol) {
      const found = manifest.tokens.find((t) => t.chainId === chainId && t.symbol === symbol);
      if (!found) throw new Error(`no sandbox token ${symbol} on ${chainId}`);
      return found.address;
    },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function ready(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`sandbox did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('service environment:')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });
}

/** The sandbox's `POST /reorg` (issue 24 S17): the chain's last `depth` blocks replaced by empty ones. */
export async function reorgSandboxChain(
  sandboxUrl: string,
  chainId: number,
  depth: number,
): Promise<{ blockNumber: number; blockHash: string }> {
  const response = await fetch(`${sandboxUrl}/reorg`, {
    method: 'POST',
    body: JSON.stringify({ chainId, depth }),
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`sandbox refused the reorg: ${response.status} ${await response.text()}`);
  return (await response.json()) as { blockNumber: number; blockHash: string };
}
