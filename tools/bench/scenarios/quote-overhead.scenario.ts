import { type Figure, type ScenarioResult } from '../bench-figure';
import { BenchFailure, log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { type BenchRig } from '../bench-rig';
import { planBenchRequest } from '../bench-request';
import { processRssMb } from '../process-rss';
import { countBy, formatCounts, percentile } from '../quote-stats';
import { QuoteTimer } from '../quote-timer';
import { rssFigure } from './rss-figure';
import { sourceGasFigures } from './source-gas.figure';
import { type ReplayedQuotes, timeReplayedQuotes } from './time-replayed-quotes';

const PROVIDERS = 3;
const OVERHEAD_TARGET_MS = 50;
const TARGET_AT_SOURCES = 50;
const HANG_MARGIN_MS = 100;
const HANGING = 'mayan';

const plural = (n: number) => `${n} source${n === 1 ? '' : 's'}`;

/**
 * Scenario 3: POST /intents/quote for 1, 10 and 50 sources, every source asked of the 3 providers, with the provider
 * stubs answering after a fixed delay; then with one provider hanging. Each repeat first records the sandbox's answers
 * afresh (timeReplayedQuotes), so every timed call is a replay. The floor is the delay once per round of calls the
 * quote waits for in turn (a Mayan get-swap follows its quote: two rounds); the baseline is the stubs alone, the same
 * rounds sent straight to them from here. Then the source gas figure (sourceGasFigures): a quote's time with the
 * source gas estimates beside the same quote without them.
 */
export async function quoteOverheadScenario(rig: BenchRig, options: BenchOptions): Promise<ScenarioResult> {
  const manifest = rig.manifest;
  if (!manifest) throw new BenchFailure('the quote scenario needs the sandbox');
  const timer = new QuoteTimer(rig.service.url, rig.partner);
  const result: ScenarioResult = { figures: [], notes: [] };
  const requestOf = (sources: number) => {
    // A one-source request is one routed source; above that, the bench plan (the target token itself is a no-op).
    const plan = planBenchRequest({
      tokens: manifest.tokens,
      wallet: manifest.wallets.users[0].address,
      count: Math.max(2, sources),
    });
    return sources === 1 ? { ...plan.body, sources: plan.body.sources.slice(1) } : plan.body;
  };

  for (const sources of options.sourceCounts) {
    const body = requestOf(sources);
    log(`quote, ${plural(sources)}: warming up…`);
    await timer.time(body);
    const repeats: ReplayedQuotes[] = [];
    const rss: (number | null)[] = [];
    for (let r = 0; r < options.repeats; r += 1) {
      const repeat = await timeReplayedQuotes(rig, timer, body, options.quotes);
      repeats.push(repeat);
      rss.push(processRssMb(rig.service.pid));
      const times = repeat.samples.map((s) => Math.round(s.ms)).join(' ');
      log(`  repeat ${r + 1}: ${times} ms; stubs alone ${Math.round(repeat.stubsAloneMs)} ms`);
    }
    result.notes.push(describeRepeats(plural(sources), repeats));
    const scenario = `3. quote, ${plural(sources)} × ${PROVIDERS} providers`;
    // The floor: every round of provider calls answering after exactly the stubs' delay, one round after the other.
    const floorOf = (r: ReplayedQuotes) => r.rounds * options.providerDelayMs;
    const rounds = [...new Set(repeats.map((r) => r.rounds))].join('/');
    const row = (p: number): Figure => ({
      scenario,
      name: `p${p} over the floor (${rounds} × ${options.providerDelayMs} ms)`,
      unit: 'ms',
      samples: repeats.map((r) => percentile(timesOf(r), p) - floorOf(r)),
      baseline: { label: 'stubs alone', samples: repeats.map((r) => r.stubsAloneMs - floorOf(r)) },
      ratioAs: 'none',
    });
    const target = { on: 'measured', op: '≤', value: OVERHEAD_TARGET_MS } as const;
    result.figures.push(
      row(50),
      { ...row(95), ...(sources >= TARGET_AT_SOURCES ? { target } : {}) },
      rssFigure(`service RSS after quotes of ${plural(sources)}`, rss),
    );
  }
  const sourceGas = await sourceGasFigures(rig, options);
  result.figures.push(...sourceGas.figures);
  result.notes.push(...sourceGas.notes);
  const largest = requestOf(Math.max(...options.sourceCounts));
  result.figures.push(await hangingProvider(rig, timer, largest, options));
  return result;
}

const timesOf = (repeat: ReplayedQuotes) => repeat.samples.map((s) => s.ms);

/** What the repeats say beside their times: the fan-out, how it was answered, and who spent the CPU. */
function describeRepeats(label: string, repeats: readonly ReplayedQuotes[]): string {
  const mean = (pick: (r: ReplayedQuotes) => number | null) => {
    const values = repeats.map(pick);
    if (values.some((v) => v === null)) return 'n/a';
    return `${Math.round((values as number[]).reduce((a, b) => a + b, 0) / values.length)} ms`;
  };
  const statuses = formatCounts(
    countBy(
      repeats.flatMap((r) => r.samples),
      (s) => s.facts.quoteStatus,
    ),
  );
  const missed = repeats.reduce((n, r) => n + r.missed, 0);
  return (
    `Quote, ${label}: ${repeats[0].calls} provider calls per quote in ${repeats[0].rounds} ` +
    `round${repeats[0].rounds === 1 ? '' : 's'} ` +
    `(${missed} not replayed); answers ${statuses}; ` +
    `CPU per quote: service ${mean((r) => r.serviceCpuMs)}, bench process (stubs and client) ` +
    `${mean((r) => r.benchCpuMs)}.`
  );
}

/** One provider never answers: the quote must come back by maxWaitMs (+100 ms) with that provider timed out. */
async function hangingProvider(
  rig: BenchRig,
  timer: QuoteTimer,
  body: object,
  options: BenchOptions,
): Promise<Figure> {
  const maxWaitMs = options.hangMaxWaitMs;
  // Fresh answers for the providers that do answer (see timeReplayedQuotes).
  rig.stub.forget();
  await timer.time(body);
  rig.stub.setHanging([HANGING]);
  const worst: number[] = [];
  try {
    for (let r = 0; r < options.repeats; r += 1) {
      const answers = [await timer.time({ ...body, maxWaitMs }), await timer.time({ ...body, maxWaitMs })];
      for (const answer of answers) {
        if (!answer.facts.byProvider[HANGING]?.failed['provider_timeout']) {
          throw new BenchFailure(`with ${HANGING} hanging, no ${HANGING} slice reported provider_timeout`);
        }
      }
      worst.push(Math.max(...answers.map((a) => a.ms)));
      log(`  ${HANGING} hanging, repeat ${r + 1}: ${answers.map((a) => Math.round(a.ms)).join(' ')} ms`);
    }
  } finally {
    rig.stub.setHanging([]);
  }
  return {
    scenario: `3. quote, ${HANGING} hanging`,
    name: `answer time (slower of 2), maxWaitMs ${maxWaitMs}`,
    unit: 'ms',
    samples: worst,
    baseline: { label: 'maxWaitMs', samples: worst.map(() => maxWaitMs) },
    target: { on: 'measured', op: '≤', value: maxWaitMs + HANG_MARGIN_MS },
  };
}
