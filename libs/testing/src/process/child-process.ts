import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** The repository root (this file is libs/testing/src/process/). */
export const repoRoot = join(__dirname, '..', '..', '..', '..');

/**
 * Runs a TypeScript entry point of this repo as a child process, its output captured line by line; `nodeArgs` go to
 * node itself (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function spawnEntry(
  entry: string,
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void,
  nodeArgs: readonly string[] = [],
): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, join(repoRoot, 'tools', 'run-ts.js'), entry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  captureLines(child, onLine);
  return child;
}

/** Hands each whole line a child writes to stdout or stderr to `onLine`, as it comes. */
export function captureLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      lines.forEach(onLine);
    });
  }
}

/** Resolves with the first line matching `pattern`; rejects if the child exits first or time runs out. */
export function waitForLine(
  child: ChildProcess,
  lines: string[],
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}:\n${lines.join('\n')}`)),
      timeoutMs,
    );
    const check = setInterval(() => {
      for (const line of lines) {
        const match = pattern.exec(line);
        if (match) {
          clearTimeout(timer);
          clearInterval(check);
          resolve(match);
          return;
        }
      }
    }, 20);
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearInterval(check);
      reject(new Error(`exited with code ${code}:\n${lines.join('\n')}`));
    });
  });
}

/** Sends SIGTERM and waits for the exit (SIGKILL after a grace period). */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
