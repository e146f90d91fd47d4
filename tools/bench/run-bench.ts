import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Figure, type ScenarioResult } from './bench-figure';
import { log } from './bench-failure';
import { type BenchOptions } from './bench-options';
import { type BenchRig, startBenchRig } from './bench-rig';
import { benchTable } from './bench-table';
import { bootScenario } from './scenarios/boot.scenario';
import { distributedScenario } from './scenarios/distributed.scenario';
import { historyScenario } from './scenarios/history.scenario';
import { quoteOverheadScenario } from './scenarios/quote-overhead.scenario';
import { signedRequestsScenario } from './scenarios/signed-requests.scenario';
import { statusByCountScenario } from './scenarios/status-by-count.scenario';
import { webhooksScenario } from './scenarios/webhooks.scenario';

export interface BenchReport {
  figures: Figure[];
  /** The table as written to `out`. */
  markdown: string;
}

/**
 * `npm run bench`, the entry the CLI and the smoke spec share: the scenarios one after another (those in
 * `options.only`), the service-backed ones on one service process so its memory is read after each load, then the
 * webhooks in this process and the boots once nothing else runs. Writes the table to `options.out` (formatted by
 * `deps.formatMarkdown` where given: the CLI passes prettier) and returns it.
 */
export async function runBench(
  options: BenchOptions,
  deps: { formatMarkdown?: (markdown: string, file: string) => Promise<string> } = {},
): Promise<BenchReport> {
  const results: ScenarioResult[] = [];
  const started = Date.now();
  const onRig = (['signed', 'status', 'quotes'] as const).filter((s) => options.only.has(s));
  if (onRig.length > 0) {
    // Stopped or interrupted, even while starting, the run still stops the service, the baseline and the sandbox.
    const starting = startBenchRig(options);
    const interrupted = () =>
      void starting
        .then((r) => r.stop())
        .catch(() => undefined)
        .finally(() => process.exit(1));
    process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
    const rig = await starting.catch((error: unknown) => {
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
      throw error;
    });
    const scenarios: Record<(typeof onRig)[number], (r: BenchRig) => Promise<ScenarioResult>> = {
      signed: (r) => signedRequestsScenario(r, options),
      status: (r) => statusByCountScenario(r, options),
      quotes: (r) => quoteOverheadScenario(r, options),
    };
    try {
      for (const name of onRig) results.push(await scenarios[name](rig));
    } finally {
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
      await rig.stop();
    }
  }
  if (options.only.has('distributed')) {
    log('distributed…');
    results.push(await distributedScenario(options));
  }
  if (options.only.has('webhooks')) {
    log('webhooks…');
    results.push(await webhooksScenario(options));
  }
  if (options.only.has('history')) {
    log('history…');
    results.push(await historyScenario(options));
  }
  if (options.only.has('boot')) {
    log('boot…');
    results.push(await bootScenario(options));
  }
  const figures = results.flatMap((r) => r.figures);
  const notes = [
    ...results.flatMap((r) => r.notes),
    `The whole run took ${Math.round((Date.now() - started) / 1000)} s${options.smoke ? ' (--smoke sizes)' : ''}.`,
  ];
  const table = benchTable({ figures, notes, repeats: options.repeats });
  const markdown = deps.formatMarkdown ? await deps.formatMarkdown(table, options.out) : table;
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, markdown);
  return { figures, markdown };
}
