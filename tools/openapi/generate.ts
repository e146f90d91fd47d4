import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiFiles } from './openapi-files';
import { REPO_ROOT } from './paths';

/**
 * `npm run openapi`: writes docs/openapi.json and docs/api-reference.html from libs/contract.
 * `npm run openapi -- --check`: writes nothing, exits 1 when either file differs from what would be written.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const file of await generateOpenApiFiles()) {
    const target = join(REPO_ROOT, file.path);
    const current = readOrNull(target);
    if (current === file.content) {
      process.stdout.write(`${file.path}: up to date\n`);
    } else if (check) {
      stale.push(file.path);
    } else {
      writeFileSync(target, file.content);
      process.stdout.write(`${file.path}: written (${Buffer.byteLength(file.content)} bytes)\n`);
    }
  }
  if (stale.length > 0) {
    process.stderr.write(`${stale.join(', ')} out of date with libs/contract: run \`npm run openapi\`\n`);
    process.exitCode = 1;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
