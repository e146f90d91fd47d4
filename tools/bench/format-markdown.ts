import { format, resolveConfig } from 'prettier';

/**
 * Formats Markdown as the repository does (`npm run format`), so a written result passes `prettier --check` and pastes
 * into docs/operations/benchmarks.md as is. Kept out of run-bench: prettier's CommonJS build loads itself with a dynamic import, which
 * jest refuses, and the smoke spec runs runBench inside jest.
 */
export async function formatMarkdown(markdown: string, file: string): Promise<string> {
  return format(markdown, { ...(await resolveConfig(file)), parser: 'markdown' });
}
