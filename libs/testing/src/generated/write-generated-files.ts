import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The body of a generator command (`npm run openapi`, `npm run vectors`): writes each file that differs, or with
 * `--check` in argv writes nothing and sets exit code 1 naming the stale files and the command that regenerates them.
 */
export async function writeGeneratedFiles(params: {
  root: string;
  files: () => Promise<readonly { path: string; content: string }[]>;
  /** What the files are generated from, and the command that regenerates them: for the stale-file message. */
  source: string;
  command: string;
}): Promise<void> {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const file of await params.files()) {
    const target = join(params.root, file.path);
    if (readOrNull(target) === file.content) {
      process.stdout.write(`${file.path}: up to date\n`);
    } else if (check) {
      stale.push(file.path);
    } else {
      writeFileSync(target, file.content);
      process.stdout.write(`${file.path}: written (${Buffer.byteLength(file.content)} bytes)\n`);
    }
  }
  if (stale.length > 0) {
    process.stderr.write(
      `${stale.join(', ')} out of date with ${params.source}: run \`${params.command}\`\n`,
    );
    process.exitCode = 1;
  }
}

/** A generator's main, run: its failure printed with the stack, exit code 1. */
export function runGenerator(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
