import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { findFreePort } from './find-free-port';
import { resolveAnvilBinary } from './resolve-anvil-binary';

export interface StartAnvilOptions {
  chainId: number;
  /** A fixed port. By default a free port is picked, and picked again if another process takes it first. */
  port?: number;
  /** Seconds between blocks. By default every transaction is mined as it arrives (automine). */
  blockTime?: number;
  /** With blockTime: also mine every transaction as it arrives (anvil --mixed-mining), blocks on the interval too. */
  mixedMining?: boolean;
  /** How long to wait for the node to answer `eth_chainId` (default 10 s). */
  readyTimeoutMs?: number;
  /** Listen address (default 127.0.0.1; `0.0.0.0` lets other containers reach it). `rpcUrl` stays loopback. */
  host?: string;
  /** Start as a fork of this node's latest block: a second node of the same chain, agreeing on its history. */
  forkUrl?: string;
}

export interface AnvilInstance {
  chainId: number;
  rpcUrl: string;
  port: number;
  /** Ends the node; safe to call twice. */
  stop(): Promise<void>;
}

export class AnvilStartError extends Error {
  override readonly name = 'AnvilStartError' as const;
  constructor(
    message: string,
    readonly portInUse = false,
  ) {
    super(message);
  }
}

const PORT_ATTEMPTS = 5;

/**
 * Starts an anvil node (on 127.0.0.1 unless `host` says otherwise) with the default mnemonic (the ten `ANVIL_ACCOUNTS`, 10000 ETH each) and
 * resolves once it answers. The node is killed by `stop()`, or when this process exits (ctrl-c reaches it
 * directly: it shares the terminal's process group).
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const binary = resolveAnvilBinary();
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await findFreePort());
    try {
      return await launch(binary, port, options);
    } catch (err) {
      const retry = options.port === undefined && err instanceof AnvilStartError && err.portInUse;
      if (!retry || attempt >= PORT_ATTEMPTS) throw err;
    }
  }
}

async function launch(binary: string, port: number, options: StartAnvilOptions): Promise<AnvilInstance> {
  const args = [
    '--chain-id',
    String(options.chainId),
    '--port',
    String(port),
    '--host',
    options.host ?? '127.0.0.1',
    '--quiet',
  ];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.mixedMining === true) args.push('--mixed-mining');
  if (options.forkUrl !== undefined) args.push('--fork-url', options.forkUrl);
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const state: { stderr: string; failure: Error | null } = { stderr: '', failure: null };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (state.stderr.length < 4000) state.stderr += chunk;
  });
  child.once('error', (err) => (state.failure = err));
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      untrack(child);
      resolve();
    }),
  );
  track(child);
  const stop = async () => {
    untrack(child);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(force);
    }
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 10_000);
  for (;;) {
    if (state.failure) {
      await stop();
      throw new AnvilStartError(`cannot run ${binary}: ${state.failure.message}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      untrack(child);
      await exited;
      const reason = state.stderr.trim() || `exit code ${child.exitCode ?? child.signalCode}`;
      throw new AnvilStartError(
        `anvil on port ${port} stopped: ${reason}`,
        /address already in use/i.test(reason),
      );
    }
    // Something else may hold the port and never answer: stop waiting as soon as anvil exits.
    const chainId = await Promise.race([readChainId(rpcUrl), exited.then(() => null)]);
    if (chainId === options.chainId) return { chainId, rpcUrl, port, stop };
    if (chainId !== null) {
      await stop();
      throw new AnvilStartError(`port ${port} is taken by a node of chain ${chainId}`, true);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new AnvilStartError(
        `anvil on port ${port} did not answer within ${options.readyTimeoutMs ?? 10_000} ms`,
      );
    }
    await delay(10);
  }
}

async function readChainId(rpcUrl: string): Promise<number | null> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number(body.result) : null;
  } catch {
    return null; // not listening yet
  }
}

// Nodes still running when this process exits are killed with it. One listener, present only while a node runs,
// so that loading this module (every test file importing @svc/testing does) adds none.
const live = new Set<ChildProcess>();
const killLive = () => {
  for (const child of live) child.kill('SIGKILL');
};

function track(child: ChildProcess): void {
  if (live.size === 0) process.on('exit', killLive);
  live.add(child);
}

function untrack(child: ChildProcess): void {
  if (live.delete(child) && live.size === 0) process.off('exit', killLive);
}
