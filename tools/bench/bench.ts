import 'reflect-metadata';
import { log } from './bench-failure';
import { benchOptions } from './bench-options';
import { formatMarkdown } from './format-markdown';
import { runBench } from './run-bench';

/**
 * `npm run bench`: every scenario of issue 15 (signed requests and status reads against a bare baseline, status reads
 * against the attempts stored, quote overhead above the providers' floor, webhooks with a black-holed partner,
 * memory and boot), printed as one table and written to tools/bench/results/bench.md. `-- --smoke` runs the tiny
 * sizes CI uses; `-- --only quotes,webhooks` and `-- --repeats N` narrow a run (see benchOptions).
 */
async function main(): Promise<number> {
  const options = benchOptions(process.argv.slice(2));
  const { markdown } = await runBench(options, { formatMarkdown });
  log('');
  log(markdown);
  log(`written to ${options.out}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
