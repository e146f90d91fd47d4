import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, platform } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';
import { DEFAULT_WEBHOOKS_OPTIONS, type WebhooksOptions } from '@svc/webhooks';
import { type LatencySummary, summarize } from './quote-stats';
import { LIFECYCLE } from './webhook-lifecycle';
import { runWebhookDelivery } from './webhook-run';
import { BenchFailure, log } from './bench-failure';
import { formatMarkdown } from './format-markdown';

/**
 * `npm run bench:webhooks`: delivery of attempt lifecycle webhooks through the outbox relay and the dispatcher
 * (WebhooksModule over an in-process bus and a SQLite event store, as the standalone service composes them) to a
 * loopback partner receiver (the partner client's createWebhookReceiver). Appends AttemptPrepared for N attempts,
 * then times the three lifecycle events of each, and measures append → receiver latency and throughput. A second
 * run answers 503 to the first try of every event. Prints a Markdown table and writes it to
 * tools/bench/results/webhook-delivery.md.
 */

const ATTEMPTS = 200;
const EXPECTED = ATTEMPTS * LIFECYCLE.length;
const PARTNER_ID = 'bench-partner';
const SECRET = 'bench-webhook-secret-0123456789abcdef';
/** The service's defaults (WEBHOOK_TICK_MS 1000, WEBHOOK_TIMEOUT_MS 15000, concurrency 8). */
const OPTIONS: WebhooksOptions = { ...DEFAULT_WEBHOOKS_OPTIONS };
/** Context row: the same run with a faster dispatcher tick, to show how much of the latency is the tick. */
const FAST_TICK_MS = 100;
const WATCHDOG_MS = 110_000;

interface Scenario {
  name: string;
  refuseFirstTry: boolean;
  tickMs: number;
  waitMs: number;
  /** The circuit breaker off: a row that measures the retry schedule alone. */
  breakerOff?: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: 'receiver answers 200', refuseFirstTry: false, tickMs: OPTIONS.tickMs, waitMs: 30_000 },
  {
    name: `receiver answers 200, tickMs ${FAST_TICK_MS} (context)`,
    refuseFirstTry: false,
    tickMs: FAST_TICK_MS,
    waitMs: 30_000,
  },
  {
    // Five 503s in a row would open the partner's circuit breaker (M8) and hold its webhooks for 30 s: this row
    // measures the retry schedule alone, so the breaker is off here.
    name: 'receiver answers 503 to the first try of every event (breaker off)',
    refuseFirstTry: true,
    breakerOff: true,
    tickMs: OPTIONS.tickMs,
    waitMs: 60_000,
  },
];

interface Row {
  scenario: string;
  wallMs: number;
  perSecond: number;
  latency: LatencySummary;
  byKind: Record<string, LatencySummary>;
  posts: number;
  refused: number;
  appendMs: number;
}

async function runScenario(scenario: Scenario): Promise<Row> {
  const run = await runWebhookDelivery({
    partners: [
      {
        partnerId: PARTNER_ID,
        secret: SECRET,
        attempts: ATTEMPTS,
        endpoint: 'receiver',
        refuseFirstTry: scenario.refuseFirstTry,
      },
    ],
    options: {
      ...OPTIONS,
      tickMs: scenario.tickMs,
      ...(scenario.breakerOff
        ? { breaker: { failureThreshold: Number.POSITIVE_INFINITY, coolDownMs: 0 } }
        : {}),
    },
    waitMs: scenario.waitMs,
  });
  const delivered = run.byPartner.get(PARTNER_ID)!;
  const row: Row = {
    scenario: scenario.name,
    wallMs: delivered.wallMs,
    perSecond: EXPECTED / (delivered.wallMs / 1000),
    latency: summarize(delivered.latencies),
    byKind: Object.fromEntries(Object.entries(delivered.byKind).map(([k, v]) => [k, summarize(v)])),
    posts: delivered.posts,
    refused: delivered.refused,
    appendMs: run.appendMs,
  };
  log(
    `  ${scenario.name}: ${EXPECTED} in ${Math.round(row.wallMs)} ms (${row.perSecond.toFixed(1)}/s), ` +
      `p50 ${Math.round(row.latency.p50)} ms, p95 ${Math.round(row.latency.p95)} ms, ` +
      `max ${Math.round(row.latency.max)} ms; ${row.posts} POSTs`,
  );
  return row;
}

function report(rows: Row[]): string {
  const ms = (n: number) => `${Math.round(n)}`;
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const kinds = LIFECYCLE.map((l) => l.kind);
  return [
    `### Webhook delivery (\`npm run bench:webhooks\`)`,
    '',
    `${new Date().toISOString().slice(0, 10)}; ${availableParallelism()} CPUs (${cpu}), Node ${process.version}, ` +
      `${platform()} ${arch()}. One process: WebhooksModule (outbox relay + dispatcher, tickMs ` +
      `${OPTIONS.tickMs} unless the row says otherwise, concurrency ${OPTIONS.concurrency}) over the in-process bus and a SQLite event store ` +
      `(poll 5 ms), delivering to a loopback node:http server running the partner client's ` +
      `\`createWebhookReceiver\`.`,
    '',
    `${ATTEMPTS} attempts, AttemptPrepared appended first (untimed), then AttemptWalletSubmitted, ` +
      `AttemptProviderPending and AttemptSettled per attempt, one sequential append each: ${EXPECTED} webhooks. ` +
      `Latency: append resolved → receiver processed that eventId. Throughput: ${EXPECTED} / (first lifecycle ` +
      `append → last arrival). Every run checked: all ${EXPECTED} arrived, each eventId processed once, per ` +
      `attempt in the order wallet_submitted, provider_pending, settled.`,
    '',
    '| scenario | webhooks | wall s | deliveries/s | p50 ms | p95 ms | max ms | POSTs (refused) | appends took ms |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${EXPECTED} | ${(r.wallMs / 1000).toFixed(2)} | ${r.perSecond.toFixed(1)} | ` +
        `${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.max)} | ${r.posts} (${r.refused}) | ` +
        `${ms(r.appendMs)} |`,
    ),
    '',
    'Latency by event (p50 / p95 / max ms):',
    '',
    `| scenario | ${kinds.join(' | ')} |`,
    `| --- | ${kinds.map(() => '--:').join(' | ')} |`,
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${kinds
          .map((k) => {
            const s = r.byKind[k];
            return s ? `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.max)}` : '—';
          })
          .join(' | ')} |`,
    ),
    '',
  ].join('\n');
}

async function run(): Promise<void> {
  const rows: Row[] = [];
  for (const scenario of SCENARIOS) {
    log(`${scenario.name}…`);
    rows.push(await runScenario(scenario));
  }
  const out = join(repoRoot, 'tools', 'bench', 'results', 'webhook-delivery.md');
  const markdown = await formatMarkdown(report(rows), out);
  log('');
  log(markdown);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, markdown);
  log(`written to ${out}`);
}

async function main(): Promise<number> {
  let watchdog: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        watchdog = setTimeout(
          () => reject(new BenchFailure(`did not finish within ${WATCHDOG_MS / 1000} s`)),
          WATCHDOG_MS,
        );
      }),
    ]);
    return 0;
  } catch (error) {
    process.stderr.write(`bench:webhooks failed: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  } finally {
    clearTimeout(watchdog);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:webhooks failed: ${String(error)}\n`);
    process.exit(1);
  },
);
