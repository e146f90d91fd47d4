import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';
import { buildGoPrograms, GO_MODULES, PYTHON_SDK, setupPython } from './toolchains';

/**
 * `npm run sdks:setup`: the Python SDK's venv (sdks/python/.venv) and the Go programs, from PyPI and the Go module
 * proxy. `npm run test:sdks`: that set-up, then the Python SDK's pytest suite, mypy --strict over its sources, and `go vet` + `go test` of each Go
 * module. A toolchain missing from the machine is one printed line and a skip; a failure exits 1.
 */
function main(command: string | undefined): number {
  if (command !== 'setup' && command !== 'test') {
    process.stderr.write('usage: node tools/run-ts.js tools/sdks/main.ts setup|test\n');
    return 2;
  }
  const log = (line: string) => process.stdout.write(`${line}\n`);
  let failed = false;
  const step = (what: string, cmd: string, args: string[], cwd = repoRoot) => {
    log(`$ ${what}`);
    const result = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
    if (result.status !== 0) {
      log(`${what}: failed (${result.error?.message ?? `exit code ${result.status}`})`);
      failed = true;
    }
  };

  const python = setupPython(log);
  if (python.ok) {
    log(`python: ${python.value}`);
    if (command === 'test') {
      step('pytest sdks/python/tests', python.value, ['-m', 'pytest', '-q', join(PYTHON_SDK, 'tests')]);
      // The package ships py.typed: its own sources must type-check strictly.
      step('mypy --strict sdks/python/src', python.value, [
        '-m',
        'mypy',
        '--strict',
        join(PYTHON_SDK, 'src'),
      ]);
    }
  } else if (/not on PATH/.test(python.reason)) {
    log(`python SDK: skipped, ${python.reason}`);
  } else {
    log(`python SDK: ${python.reason}`);
    failed = true;
  }

  const go = buildGoPrograms(log);
  if (go.ok) {
    log(`go: built ${Object.values(go.value).join(', ')}`);
    if (command === 'test') {
      for (const module of GO_MODULES) {
        step(`go vet ./... (${module})`, 'go', ['vet', './...'], join(repoRoot, module));
        step(`go test ./... (${module})`, 'go', ['test', './...'], join(repoRoot, module));
      }
    }
  } else if (/not on PATH/.test(go.reason)) {
    log(`go SDK: skipped, ${go.reason}`);
  } else {
    log(`go SDK: ${go.reason}`);
    failed = true;
  }
  return failed ? 1 : 0;
}

process.exitCode = main(process.argv[2]);
