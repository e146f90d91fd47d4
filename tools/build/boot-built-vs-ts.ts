import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, stopChild } from '@svc/testing';
import { prepareProdApp } from './prod-app';
import { spawnBuiltApp } from './run-built';

/**
 * `npm run bench:boot` (here, beside the build it measures: Nx keeps tools/bench from importing it; the table goes
 * to tools/bench/results with the other benchmarks'): the standalone service built and run as JavaScript on
 * production dependencies alone (the runtime image's contents: tools/build/prod-app.ts) beside the same service
 * run as the image ran it until now,
 * `node tools/run-ts.js apps/standalone/src/main.ts` on the full node_modules, with its compile cache warm, and
 * with it empty: what a pod with a read-only root filesystem (docker/k8s) does at every start, compile every file
 * (an empty tmpfs mounted over the cache in a mount namespace of its own, `unshare -m`: root on Linux; the row says
 * so where that fails). Alternating runs, `--repeats N` each (default 5): from spawn to `/readyz` 200 and the RSS
 * 1 s later, with only DATA_DIR (fresh each run), PARTNERS_FILE and SERVICE_FEE_RECIPIENT set; and the size of each
 * node_modules (on disk, and its files' bytes). Prints a Markdown table and writes it to
 * tools/bench/results/boot-built-vs-ts.md (`--out FILE` elsewhere).
 */
const SETTLE_MS = 1000;
/** tools/register-ts.js's compile cache (its CACHE_DIR). */
const RUN_TS_CACHE = join(realpathSync(join(repoRoot, 'node_modules')), '.cache', 'run-ts');

interface Run {
  bootMs: number;
  rssMb: number;
}

async function main(): Promise<void> {
  const repeats = Number(flag('--repeats') ?? 5);
  const out = flag('--out') ?? join(repoRoot, 'tools', 'bench', 'results', 'boot-built-vs-ts.md');
  const dir = mkdtempSync(join(tmpdir(), 'boot-bench-'));
  try {
    const buildStarted = performance.now();
    const app = await prepareProdApp({ root: repoRoot, dir, apps: ['standalone'] });
    const preparedMs = performance.now() - buildStarted;
    const env = (name: string): NodeJS.ProcessEnv => {
      const dataDir = join(dir, `data-${name}`);
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir);
      return {
        PATH: process.env['PATH'],
        DATA_DIR: dataDir,
        PARTNERS_FILE: join(repoRoot, 'config', 'partners.dev.json'),
        SERVICE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
        HOST: '127.0.0.1',
        PORT: '0',
        OPS_PORT: '0',
        LOG_LEVEL: 'warn',
      };
    };
    const built: Run[] = [];
    const ts: Run[] = [];
    const cold: Run[] = [];
    const canUnshare = spawnSync('unshare', ['-m', 'true']).status === 0;
    // One run of each first, not counted: the page cache holds both trees and run-ts's cache is written.
    await measure(() => spawnBuiltApp(app.dir, 'standalone', env('warm-built')).child);
    await measure(() => spawnTs(env('warm-ts')));
    for (let i = 0; i < repeats; i++) {
      built.push(await measure(() => spawnBuiltApp(app.dir, 'standalone', env(`built-${i}`)).child));
      ts.push(await measure(() => spawnTs(env(`ts-${i}`))));
      if (canUnshare) cold.push(await measure(() => spawnTs(env(`cold-${i}`), { coldCache: true })));
      process.stderr.write(`boot bench: repeat ${i + 1}/${repeats}\n`);
    }
    const fullMb = size(realpathSync(join(repoRoot, 'node_modules')), ['.cache']);
    const prodMb = size(app.install.nodeModules, []);
    const distMb = size(join(app.dir, 'dist'), []);
    const table = [
      `# Boot: built (dist, production dependencies) vs today (tools/run-ts.js, full node_modules)`,
      '',
      `\`npm run bench:boot -- --repeats ${repeats}\` on Node ${process.versions.node}; medians of ${repeats} alternating runs (min-max).`,
      `Build and production install before the runs: ${(preparedMs / 1000).toFixed(1)} s (build ${(app.build.ms / 1000).toFixed(1)} s, npm ci ${app.install.installMs === null ? 'cached' : `${(app.install.installMs / 1000).toFixed(1)} s`}).`,
      '',
      "| standalone service | node_modules: on disk (files' bytes) | boot to /readyz 200 | RSS 1 s after ready |",
      '| --- | --- | --- | --- |',
      row(
        `built: \`node dist/apps/standalone/src/main.js\`, production dependencies (+ dist ${distMb})`,
        prodMb,
        built,
      ),
      row(
        'today: `node tools/run-ts.js apps/standalone/src/main.ts`, full node_modules (without .cache), compile cache warm',
        fullMb,
        ts,
      ),
      canUnshare
        ? row(
            'today, compile cache empty (a read-only root filesystem: every file compiled at each start)',
            fullMb,
            cold,
          )
        : '| today, compile cache empty | not measured: `unshare -m` failed (needs root on Linux) | | |',
      '',
    ].join('\n');
    process.stdout.write(`${table}\n`);
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, table);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function spawnTs(env: NodeJS.ProcessEnv, options: { coldCache?: boolean } = {}): ChildProcess {
  const node = [process.execPath, join(repoRoot, 'tools', 'run-ts.js'), 'apps/standalone/src/main.ts'];
  // unshare and sh exec what follows: the pid measured is node's.
  const [command, ...args] = options.coldCache
    ? ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs none "$0" && exec "$@"', RUN_TS_CACHE, ...node]
    : node;
  return spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Spawns, reads the ops URL from the start banner, polls its /readyz until 200; RSS SETTLE_MS later; stops it. */
async function measure(start: () => ChildProcess): Promise<Run> {
  const started = performance.now();
  const child = start();
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited ${child.exitCode}:\n${output}`);
      if (performance.now() - started > 60_000) throw new Error(`not ready in 60 s:\n${output}`);
      const ops = /probes and metrics (http:\/\/\S+)/.exec(output)?.[1];
      if (ops !== undefined && (await fetch(`${ops}/readyz`).catch(() => null))?.status === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const bootMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rssMb = processRssMb(child.pid ?? -1);
    if (rssMb === null) throw new Error('no RSS (Linux /proc only)');
    return { bootMs, rssMb };
  } finally {
    await stopChild(child);
  }
}

/** `<on disk> MB (<bytes> MB)`: du -sk, and du -sk --apparent-size. */
function size(path: string, exclude: string[]): string {
  const du = (extra: string[]) =>
    Math.round(
      Number(
        execFileSync('du', ['-sk', ...extra, ...exclude.map((e) => `--exclude=${e}`), path], {
          encoding: 'utf8',
        }).split('\t')[0],
      ) / 1024,
    );
  return `${du([])} MB (${du(['--apparent-size'])} MB)`;
}

/** VmRSS of a process in MB (Linux /proc), as tools/bench/process-rss.ts reads it; null where it cannot be read. */
function processRssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function row(what: string, size: string, runs: Run[]): string {
  return `| ${what} | ${size} | ${stat(
    runs.map((r) => r.bootMs),
    'ms',
  )} | ${stat(
    runs.map((r) => r.rssMb),
    'MB',
  )} |`;
}

function stat(values: number[], unit: string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const f = (v: number | undefined) => Math.round(v ?? NaN);
  return `${f(median)} ${unit} (${f(sorted[0])}-${f(sorted.at(-1))})`;
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

main().catch((err: unknown) => {
  process.stderr.write(`boot bench: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
