import { type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { findFreePort, spawnEntry, stopChild } from '@svc/testing';
import { BenchFailure, log } from '../bench-failure';

export interface ChildServer {
  url: string;
  pid: number;
  /** From spawning the process to its first 200 on /readyz. */
  bootMs: number;
  /** Where the process writes its CPU and heap profiles (at exit), if it was started with `profileDir`. */
  profileDir?: string;
  stop(): Promise<void>;
}

const READY_POLL_MS = 20;

/**
 * Runs a TypeScript entry of this repo as `npm run service` runs the service (node tools/run-ts.js <entry>) on a free
 * loopback port, and resolves once GET /readyz answers 200. The environment is only what is given (plus PATH and
 * HOME), so a variable set in the shell cannot change what is measured.
 */
export async function startChildServer(params: {
  name: string;
  entry: string;
  env: Record<string, string>;
  timeoutMs?: number;
  /** Run it with `--cpu-prof --heap-prof` writing into this directory (profiles appear when it stops). */
  profileDir?: string;
}): Promise<ChildServer> {
  const port = await findFreePort();
  const lines: string[] = [];
  const started = performance.now();
  const child = spawnEntry(
    params.entry,
    {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      ...params.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // The service's ops listener on a port of its own (no clash between children); /readyz also on PORT, where
      // the bare baseline answers it, so both are timed to the same probe.
      OPS_PORT: String(await findFreePort()),
      OPS_ON_API_PORT: 'true',
    },
    (line) => {
      lines.push(line);
      if (process.env['VERBOSE'] === '1' || /error|fatal/i.test(line)) log(`[${params.name}] ${line}`);
    },
    params.profileDir
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${params.profileDir}`,
          '--heap-prof',
          `--heap-prof-dir=${params.profileDir}`,
        ]
      : [],
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilReady(child, `${url}/readyz`, params.timeoutMs ?? 60_000);
  } catch (error) {
    await stopChild(child);
    throw new BenchFailure(
      `${params.name} did not become ready: ${(error as Error).message}\n${lines.join('\n')}`,
    );
  }
  return {
    url,
    pid: child.pid!,
    bootMs: performance.now() - started,
    ...(params.profileDir ? { profileDir: params.profileDir } : {}),
    stop: () => stopChild(child),
  };
}

async function untilReady(child: ChildProcess, readyUrl: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    }
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`no 200 from ${readyUrl} within ${timeoutMs} ms`);
}
