import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { captureLines } from '@svc/testing';

export interface BuiltAppProcess {
  child: ChildProcess;
  lines: string[];
}

/**
 * Node's options for a folder whose `node_modules` is a link to the production install (prepareProdApp): modules are
 * resolved from the link's own path, as in the image, and never from the real path under this repository's
 * `node_modules/.cache`, whose parent folders hold the dev install (anything missing from the production install
 * would otherwise be found there).
 */
export const ISOLATED_NODE_ARGS = ['--preserve-symlinks', '--preserve-symlinks-main'] as const;

/**
 * `node dist/apps/<app>/src/main.js` in `dir` (a folder laid out as the runtime image), on this Node
 * (`process.execPath`), with `env` alone: nothing of the caller's environment leaks in, so the app sees what a pod
 * would give it, and only the production install's modules (ISOLATED_NODE_ARGS). Its output is kept line by line.
 */
export function spawnBuiltApp(dir: string, app: string, env: NodeJS.ProcessEnv): BuiltAppProcess {
  const lines: string[] = [];
  const child = spawn(
    process.execPath,
    [...ISOLATED_NODE_ARGS, join('dist', 'apps', app, 'src', 'main.js')],
    {
      cwd: dir,
      env: { PATH: process.env['PATH'], ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  captureLines(child, (line) => lines.push(line));
  return { child, lines };
}

/** Polls `url` (a /readyz) until it answers 200; rejects when the process exits or the time runs out. */
export async function waitForReady(app: BuiltAppProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null)
      throw new Error(`exited ${app.child.exitCode}:\n${app.lines.join('\n')}`);
    try {
      const res = await fetch(url);
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} not 200 within ${timeoutMs} ms (last: ${last}):\n${app.lines.join('\n')}`);
}
