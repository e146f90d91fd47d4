import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm run partner-client:build`: the publishable package in `dist/partner-client` (or the directory given):
 * `dist/cjs` (CommonJS and the .d.ts, compiled by tsc with libs/partner-client/tsconfig.build.json) and
 * `dist/esm` (`"type": "module"`: one ES module per entry that re-exports the CommonJS build by name, so both
 * module systems share one copy of the code and its classes: `instanceof IntentApiError` holds across them),
 * plus package.json, README.md and CHANGELOG.md. The entries are `.` and `./viem` (package.json `exports`).
 */
const repoRoot = join(__dirname, '..', '..', '..');
const libDir = join(repoRoot, 'libs', 'partner-client');
/** Entry name in dist/esm → its CommonJS module under dist/cjs. */
const ENTRIES = { 'index.js': 'index.js', 'viem.js': 'viem/index.js' } as const;

export function buildPackage(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  const cjs = join(outDir, 'dist', 'cjs');
  const esm = join(outDir, 'dist', 'esm');
  execFileSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(libDir, 'tsconfig.build.json'),
      '--outDir',
      cjs,
    ],
    { stdio: 'inherit' },
  );
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
  mkdirSync(esm, { recursive: true });
  writeFileSync(join(esm, 'package.json'), '{ "type": "module" }\n');
  for (const [file, target] of Object.entries(ENTRIES)) {
    const names = exportedNames(readFileSync(join(cjs, target), 'utf8'));
    writeFileSync(
      join(esm, file),
      [`import cjs from '../cjs/${target}';`, '', `export const { ${names.join(', ')} } = cjs;`, ''].join(
        '\n',
      ),
    );
  }
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md'])
    copyFileSync(join(libDir, file), join(outDir, file));
}

/** The value exports of a module as tsc emits CommonJS: `exports.X = …` and `Object.defineProperty(exports, "X", …)`. */
export function exportedNames(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/Object\.defineProperty\(exports, "(\w+)"/g)) names.add(m[1]);
  for (const m of source.matchAll(/\bexports\.(\w+) = (?!void 0)/g)) names.add(m[1]);
  names.delete('__esModule');
  return [...names].sort();
}

if (process.argv[1] !== undefined && /build-package\.ts$/.test(process.argv[1])) {
  const outDir = resolve(process.argv[2] ?? join(repoRoot, 'dist', 'partner-client'));
  buildPackage(outDir);
  process.stdout.write(`built ${outDir}\n`);
}
