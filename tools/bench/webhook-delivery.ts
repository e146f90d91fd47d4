import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type INestApplication } from '@nestjs/common';
import { SqliteEventStore } from '@svc/event-store';
import { PARTNER_DEFAULTS, type PartnerConfig } from '@svc/platform';
import { repoRoot } from '@svc/testing';
import { DEFAULT_WEBHOOKS_OPTIONS, type WebhooksOptions } from '@svc/webhooks';
import { format, resolveConfig } from 'prettier';
import { type LatencySummary, summarize } from './quote-stats';
import { createWebhookPipeline } from './webhook-pipeline';
import { type BenchReceiver, startBenchReceiver } from './webhook-receiver-server';
import { benchPrepared } from './webhook-seed';
import { BenchFailure, log } from './bench-failure';

/**
 * `npm run bench:webhooks`: delivery of attempt lifecycle webhooks through the outbox relay and the dispatcher
 * (WebhooksModule over an in-process bus and a SQLite event store, as the standalone service composes them) to a
 * loopback partner receiver (the partner client's createWebhookReceiver). Appends AttemptPrepared for N attempts,
 * then times the three lifecycle events of each, and measures append → receiver latency and throughput. A second
 * run answers 503 to the first try of every event. Prints a Markdown table and writes it to
 * tools/bench/results/webhook-delivery.md.
 */

const ATTEMPTS = 200;
const LIFECYCLE = [
  { type: 'AttemptWalletSubmitted', kind: 'wallet_submitted' },
  { type: 'AttemptProviderPending', kind: 'provider_pending' },
  { type: 'AttemptSettled', kind: 'settled' },
] as const;
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
    name: 'receiver answers 503 to the first try of every event',
    refuseFirstTry: true,
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
  const work = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const receiverErrors: unknown[] = [];
  let receiver: BenchReceiver | undefined;
  let app: INestApplication | undefined;
  const store = SqliteEventStore.open({ file: join(work, 'events.sqlite'), pollIntervalMs: 5 });
  try {
    receiver = await startBenchReceiver({
      partnerId: PARTNER_ID,
      secret: SECRET,
      refuseFirstTry: scenario.refuseFirstTry,
      onError: (error) => receiverErrors.push(error),
    });
    const partner: PartnerConfig = {
      ...PARTNER_DEFAULTS,
      partnerId: PARTNER_ID,
      secret: SECRET,
      authVersion: 2,
      callbackUrl: receiver.url,
    };
    app = await createWebhookPipeline({
      store,
      partners: [partner],
      options: { ...OPTIONS, tickMs: scenario.tickMs },
    });

    // Untimed: every attempt exists before the first lifecycle event.
    const attemptIds = Array.from({ length: ATTEMPTS }, (_, i) => `at_bench_${i}`);
    for (const attemptId of attemptIds) {
      await store.append(
        `attempt-${attemptId}`,
        [
          {
            id: randomUUID(),
            type: 'AttemptPrepared',
            data: { ...benchPrepared(attemptId, PARTNER_ID, Date.now()) },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    }

    // Timed: the three lifecycle events per attempt, one append each, attempt after attempt.
    const appended = new Map<string, { attemptId: string; kind: string; at: number }>();
    const started = performance.now();
    for (const attemptId of attemptIds) {
      for (const [i, { type, kind }] of LIFECYCLE.entries()) {
        const id = randomUUID();
        await store.append(`attempt-${attemptId}`, [{ id, type, data: { at: Date.now() } }], {
          expectedRevision: i,
        });
        appended.set(id, { attemptId, kind, at: performance.now() });
      }
    }
    const appendMs = performance.now() - started;

    const arrivals = receiver.arrivals;
    const deadline = started + scenario.waitMs;
    while (arrivals.size < EXPECTED && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (arrivals.size < EXPECTED) {
      throw new BenchFailure(
        `${scenario.name}: ${arrivals.size}/${EXPECTED} webhooks arrived within ${scenario.waitMs / 1000} s`,
      );
    }
    const last = Math.max(...[...arrivals.values()].map((a) => a.at));
    const wallMs = last - started;

    // Checks: the right events, each processed once, in lifecycle order per attempt, no signature failures.
    const duplicates = [...receiver.processed.entries()].filter(([, n]) => n > 1);
    if (duplicates.length > 0) {
      throw new BenchFailure(`${scenario.name}: ${duplicates.length} eventIds processed more than once`);
    }
    const latencies: number[] = [];
    const byKind: Record<string, number[]> = {};
    const order = new Map<string, { kind: string; at: number }[]>();
    for (const arrival of arrivals.values()) {
      const source = appended.get(arrival.eventId);
      if (!source) throw new BenchFailure(`${scenario.name}: unknown eventId ${arrival.eventId} arrived`);
      if (arrival.event !== source.kind || arrival.attemptId !== source.attemptId) {
        throw new BenchFailure(
          `${scenario.name}: ${arrival.eventId} arrived as ${arrival.event} of ${String(arrival.attemptId)}, ` +
            `appended as ${source.kind} of ${source.attemptId}`,
        );
      }
      const ms = arrival.at - source.at;
      latencies.push(ms);
      (byKind[source.kind] ??= []).push(ms);
      const seq = order.get(source.attemptId) ?? [];
      seq.push({ kind: source.kind, at: arrival.at });
      order.set(source.attemptId, seq);
    }
    const expectedOrder = LIFECYCLE.map((l) => l.kind).join(',');
    for (const [attemptId, seq] of order) {
      const got = [...seq]
        .sort((a, b) => a.at - b.at)
        .map((s) => s.kind)
        .join(',');
      if (got !== expectedOrder) throw new BenchFailure(`${scenario.name}: ${attemptId} arrived as ${got}`);
    }
    const unexpected = receiver.posts.non200 - receiver.posts.refused503;
    if (unexpected !== 0 || receiverErrors.length > 0) {
      throw new BenchFailure(
        `${scenario.name}: ${unexpected} tries answered neither 200 nor the injected 503; receiver errors: ` +
          receiverErrors.map((e) => String(e)).join('; '),
      );
    }
    const row: Row = {
      scenario: scenario.name,
      wallMs,
      perSecond: EXPECTED / (wallMs / 1000),
      latency: summarize(latencies),
      byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, summarize(v)])),
      posts: receiver.posts.total,
      refused: receiver.posts.refused503,
      appendMs,
    };
    log(
      `  ${scenario.name}: ${EXPECTED} in ${Math.round(wallMs)} ms (${row.perSecond.toFixed(1)}/s), ` +
        `p50 ${Math.round(row.latency.p50)} ms, p95 ${Math.round(row.latency.p95)} ms, ` +
        `max ${Math.round(row.latency.max)} ms; ${row.posts} POSTs`,
    );
    return row;
  } finally {
    await app?.close();
    await receiver?.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
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
  const markdown = await format(report(rows), { ...(await resolveConfig(out)), parser: 'markdown' });
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
