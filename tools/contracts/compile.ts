/**
 * Rebuilds the contract artifacts from apps/provider-sandbox/contracts/*.sol.
 *   node tools/run-ts.js tools/contracts/compile.ts          write the artifacts
 *   node tools/run-ts.js tools/contracts/compile.ts --check  exit 1 when the checked-in artifacts are stale
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildArtifactFiles } from './build-artifact-files';

async function main(check: boolean): Promise<number> {
  const files = await buildArtifactFiles();
  let stale = 0;
  for (const [file, content] of files) {
    const relative = path.relative(process.cwd(), file);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (current === content) {
      process.stdout.write(`up to date  ${relative}\n`);
    } else if (check) {
      stale++;
      process.stdout.write(`STALE       ${relative}\n`);
    } else {
      writeFileSync(file, content);
      process.stdout.write(`written     ${relative}\n`);
    }
  }
  return stale ? 1 : 0;
}

main(process.argv.includes('--check')).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
