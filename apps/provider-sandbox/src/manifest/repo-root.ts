import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The monorepo root (the directory holding nx.json), found upward from this file. */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${from}`);
    dir = parent;
  }
  return dir;
}
