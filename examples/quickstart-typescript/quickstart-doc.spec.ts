import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const MARKER = '<!-- from examples/quickstart-typescript/quickstart.ts -->';
const doc = readFileSync(join(root, 'docs', 'partners', 'typescript.md'), 'utf8');
const program = readFileSync(join(__dirname, 'quickstart.ts'), 'utf8');

/** The code blocks the page says it copied from the quickstart: the first fenced block after each marker. */
function copiedBlocks(): string[] {
  return doc
    .split(MARKER)
    .slice(1)
    .map((after) => {
      const block = /^\s*```ts\n([\s\S]*?)\n```/.exec(after);
      if (!block) throw new Error(`no ts block right after a marker:\n${after.slice(0, 200)}`);
      return block[1];
    });
}

const trimmed = (text: string) => text.split('\n').map((l) => l.trim());

describe('docs/partners/typescript.md shows the quickstart program as it is', () => {
  const blocks = copiedBlocks();

  it('marks the blocks it copies', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
  });

  it.each(blocks.map((b) => [b.split('\n')[0], b] as const))('%s…', (_first, block) => {
    // Line for line (indentation aside: the page shows a block at its own level), contiguous in the program.
    const lines = trimmed(block);
    const source = trimmed(program);
    const at = source.findIndex((_l, i) => lines.every((line, j) => source[i + j] === line));
    expect({ found: at >= 0, block }).toEqual({ found: true, block });
  });
});
