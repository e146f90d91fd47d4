import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';

/**
 * The Python and Go SDKs' toolchains, set up by the project itself (`npm run sdks:setup`, `.ci/run`, and the SDK
 * end-to-end spec): a virtual environment with the Python SDK installed in it, and the Go programs built. Each step
 * is idempotent: the venv is rebuilt only when `sdks/python/pyproject.toml` changed, and `go build` caches.
 */
export const PYTHON_SDK = join(repoRoot, 'sdks', 'python');
export const PYTHON_VENV = join(PYTHON_SDK, '.venv');
export const VENV_PYTHON = join(PYTHON_VENV, 'bin', 'python');
/** Where the Go programs are built (gitignored with node_modules). */
export const GO_BIN = join(repoRoot, 'node_modules', '.cache', 'sdk-bin');

/** The Go modules of the repository, each vetted and tested by `npm run test:sdks`. */
export const GO_MODULES = ['sdks/go', 'sdks/go/sandbox', 'examples/partner-backend-go'] as const;
/** The Go programs the end-to-end spec runs: [module, package, binary name]. */
export const GO_PROGRAMS = [
  ['sdks/go/sandbox', './cmd/quickstart', 'go-quickstart'],
  ['examples/partner-backend-go', '.', 'go-partner-backend'],
] as const;

export type Toolchain<T> = { ok: true; value: T } | { ok: false; reason: string };

const run = (command: string, args: readonly string[], cwd = repoRoot): SpawnSyncReturns<string> =>
  spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const failure = (what: string, result: SpawnSyncReturns<string>): string =>
  `${what} failed (${result.error?.message ?? `exit code ${result.status}`}): ${(result.stderr || result.stdout || '').trim().split('\n').slice(-5).join(' | ')}`;

function found(command: string): boolean {
  return run(command, ['version']).error === undefined || run(command, ['--version']).error === undefined;
}

/**
 * The venv with `intent-partner[sandbox,test]` installed (editable), made with the machine's `python3`. Returns the
 * venv's python, or why there is none: no python3 (a skip), or a failed install (a failure the caller reports).
 */
export function setupPython(log: (line: string) => void = () => undefined): Toolchain<string> {
  if (!found('python3')) return { ok: false, reason: 'python3 is not on PATH' };
  const stampFile = join(PYTHON_VENV, '.intent-setup');
  const stamp = createHash('sha256')
    .update(readFileSync(join(PYTHON_SDK, 'pyproject.toml')))
    .digest('hex');
  if (existsSync(VENV_PYTHON) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return { ok: true, value: VENV_PYTHON };
  }
  log(`python: creating ${PYTHON_VENV} and installing sdks/python[sandbox,test] from PyPI`);
  const venv = run('python3', ['-m', 'venv', '--clear', PYTHON_VENV]);
  if (venv.status !== 0) return { ok: false, reason: failure('python3 -m venv', venv) };
  const pip = run(VENV_PYTHON, [
    '-m',
    'pip',
    'install',
    '-q',
    '--disable-pip-version-check',
    '-e',
    `${PYTHON_SDK}[sandbox,test]`,
  ]);
  if (pip.status !== 0) return { ok: false, reason: failure('pip install', pip) };
  writeFileSync(stampFile, stamp);
  return { ok: true, value: VENV_PYTHON };
}

/** Builds the Go programs into GO_BIN (the module proxy serves go-ethereum for the wallet's part). */
export function buildGoPrograms(
  log: (line: string) => void = () => undefined,
): Toolchain<Record<string, string>> {
  if (!found('go')) return { ok: false, reason: 'go is not on PATH' };
  mkdirSync(GO_BIN, { recursive: true });
  const built: Record<string, string> = {};
  for (const [module, pkg, name] of GO_PROGRAMS) {
    log(`go: building ${module} ${pkg}`);
    const out = join(GO_BIN, name);
    const build = run('go', ['build', '-buildvcs=false', '-o', out, pkg], join(repoRoot, module));
    if (build.status !== 0) return { ok: false, reason: failure(`go build in ${module}`, build) };
    built[name] = out;
  }
  return { ok: true, value: built };
}
