import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_EXAMPLE, envExampleText, REPO_ROOT } from './env-example-file';

/**
 * `npm run env:example`: writes `.env.example` from the config DTOs (tools/config/env-example-file.ts).
 * `npm run env:example -- --check`: writes nothing, exits 1 when the file differs from what would be written.
 */
function main(): void {
  const target = join(REPO_ROOT, ENV_EXAMPLE);
  const content = envExampleText();
  let current: string | null = null;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = null;
  }
  if (current === content) {
    process.stdout.write(`${ENV_EXAMPLE}: up to date\n`);
  } else if (process.argv.includes('--check')) {
    process.stderr.write(`${ENV_EXAMPLE} out of date with the config DTOs: run \`npm run env:example\`\n`);
    process.exitCode = 1;
  } else {
    writeFileSync(target, content);
    process.stdout.write(`${ENV_EXAMPLE}: written (${Buffer.byteLength(content)} bytes)\n`);
  }
}

main();
