import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot, spawnEntry, stopChild, waitForLine } from '@svc/testing';

/**
 * What `npm start` and `npm run distributed` share: one place that stops everything they started, whichever way
 * they are asked to end (Ctrl-C, a signal to their pid, npm or tools/dev/supervise.js going away, a child that
 * dies, a start that fails half-way), and the provider sandbox as its own process with its manifest read back.
 */
export interface DevLifecycle {
  /** Runs on stop, the last registered first (apps before the bus and chains they use). */
  onStop(step: () => Promise<void>): void;
  /** A child whose exit ends the environment (unless it is being stopped). */
  watch(name: string, child: ChildProcess): void;
  /** Stops everything registered, once, then exits with `code`. */
  stopAll(code: number, why: string): Promise<void>;
  readonly stopping: boolean;
}

export function createDevLifecycle(name: string): DevLifecycle {
  const steps: (() => Promise<void>)[] = [];
  let stopping = false;
  const lifecycle: DevLifecycle = {
    onStop: (step) => void steps.push(step),
    watch(label, child) {
      child.once('exit', (code, signal) => {
        if (!stopping) void lifecycle.stopAll(1, `${label} exited (${signal ?? `code ${code}`})`);
      });
    },
    async stopAll(code, why) {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`${name}: ${why}, stopping everything it started\n`);
      for (const step of steps.reverse()) {
        await step().catch((err: unknown) =>
          process.stderr.write(`${name}: a stop step failed: ${(err as Error)?.message ?? String(err)}\n`),
        );
      }
      process.exit(code);
    },
    get stopping() {
      return stopping;
    },
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => void lifecycle.stopAll(0, signal));
  stopWithParent(() => void lifecycle.stopAll(0, 'its parent process ended'));
  return lifecycle;
}

/**
 * npm does not pass a signal sent to its own pid on to the script it runs (npm 10: it exits and leaves the script
 * running). The npm scripts exec tools/dev/supervise.js in npm's place, which runs this process: when this
 * process's parent changes, the supervisor (or npm, when run without it) is gone.
 */
function stopWithParent(onGone: () => void): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) onGone();
  }, 500).unref();
}

/** The parts of the sandbox's manifest (docs/sandbox.md) the dev environments print and wire. */
export interface DevSandboxManifest {
  url: string;
  env: Record<string, string>;
  chains: { chainId: number; name: string; rpcUrl: string }[];
  wallets: { users: { address: string }[] };
}

export interface DevSandbox {
  child: ChildProcess;
  manifest: DevSandboxManifest;
  manifestPath: string;
}

/**
 * `npm run sandbox` as a child process, its manifest in `env.SANDBOX_MANIFEST_DIR` (default `.sandbox/`, where
 * `npm run partner -- demo` and `npm run audit` look), resolved once it printed the service's environment.
 */
export async function startDevSandbox(
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void,
  lifecycle: DevLifecycle,
): Promise<DevSandbox> {
  const lines: string[] = [];
  const child = spawnEntry('apps/provider-sandbox/src/main.ts', env, (line) => {
    lines.push(line);
    onLine(line);
  });
  lifecycle.watch('the provider sandbox', child);
  lifecycle.onStop(() => stopChild(child, 10_000));
  await waitForLine(child, lines, /^service environment:/, 60_000);
  const manifestPath = join(
    env['SANDBOX_MANIFEST_DIR'] ? resolve(repoRoot, env['SANDBOX_MANIFEST_DIR']) : join(repoRoot, '.sandbox'),
    'manifest.json',
  );
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as DevSandboxManifest;
  return { child, manifest, manifestPath };
}
