import { DEFAULT_WEBHOOKS_OPTIONS } from '@svc/webhooks';
import { type ScenarioResult } from '../bench-figure';
import { log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { bareDeliveries } from '../baseline/bare-deliveries';
import { percentile } from '../quote-stats';
import { startBenchReceiver } from '../webhook-receiver-server';
import { LIFECYCLE } from '../webhook-lifecycle';
import { runWebhookDelivery, type WebhookPartnerPlan } from '../webhook-run';

const P95_TARGET_MS = 250;
/** "Unchanged": the measured partner's p95 with a black-holed neighbour within this multiple of its p95 without. */
const UNCHANGED_TARGET = 1.5;
const MEASURED = { partnerId: 'bench-partner', secret: 'bench-webhook-secret-0123456789abcdef' };
const NEIGHBOUR = { partnerId: 'bench-neighbour', secret: 'bench-neighbour-secret-0123456789abcd' };

/**
 * Scenario 4: attempt lifecycle webhooks through WebhooksModule (runWebhookDelivery, the dispatcher's defaults) to a
 * fast verifying receiver. Latency and throughput are measured apart: append → verified p95 with the lifecycle
 * events appended at a steady pace below capacity (the target applies there), the same pace beside a second partner
 * as busy whose endpoint is a black hole (the measured p95 must stay what it is beside the same partner with a fast
 * endpoint), and deliveries per second of a burst appended all at once. Baselines: the dispatcher's one-try function
 * called straight at a receiver. Runs in this process, not in the service child: the appends must be this process's
 * so their time is known to the millisecond.
 */
export async function webhooksScenario(options: BenchOptions): Promise<ScenarioResult> {
  const burstWebhooks = options.webhookAttempts * LIFECYCLE.length;
  const paced = options.webhookPaced;
  const dispatcher = { ...DEFAULT_WEBHOOKS_OPTIONS };
  const pacedP95: number[] = [];
  const besideHealthy: number[] = [];
  const blackHoled: number[] = [];
  const burst = { p95: [] as number[], perSecond: [] as number[], cpuMs: [] as number[] };
  const bare = { p95: [] as number[], perSecond: [] as number[] };
  const plan = (attempts: number): WebhookPartnerPlan => ({ ...MEASURED, attempts, endpoint: 'receiver' });
  const run = (partners: WebhookPartnerPlan[], attemptsPerSecond?: number) =>
    runWebhookDelivery({
      partners,
      options: dispatcher,
      waitMs: options.webhookWaitMs,
      allowMissing: partners.some((p) => p.endpoint === 'black-hole'),
      ...(attemptsPerSecond === undefined ? {} : { attemptsPerSecond }),
    });
  // Untimed warm-up: the first run of the process also pays for loading and compiling the dispatcher's code.
  await run([plan(Math.min(20, options.webhookAttempts))]);
  for (let r = 0; r < options.repeats; r += 1) {
    const alone = (await run([plan(paced.attempts)], paced.perSecond)).byPartner.get(MEASURED.partnerId)!;
    pacedP95.push(percentile(alone.latencies, 95));

    // The neighbour as much traffic as the measured partner, its endpoint fast, then black-holed: the difference is
    // the black hole's alone, not the neighbour's volume.
    const neighbour = (endpoint: 'receiver' | 'black-hole'): WebhookPartnerPlan => ({
      ...NEIGHBOUR,
      attempts: paced.attempts,
      endpoint,
    });
    const healthy = await run([plan(paced.attempts), neighbour('receiver')], paced.perSecond);
    besideHealthy.push(percentile(healthy.byPartner.get(MEASURED.partnerId)!.latencies, 95));
    const beside = (
      await run([plan(paced.attempts), neighbour('black-hole')], paced.perSecond)
    ).byPartner.get(MEASURED.partnerId)!;
    blackHoled.push(percentile(beside.latencies, 95));

    const burstRun = await run([plan(options.webhookAttempts)]);
    const all = burstRun.byPartner.get(MEASURED.partnerId)!;
    burst.p95.push(percentile(all.latencies, 95));
    burst.perSecond.push(all.arrived / (all.wallMs / 1000));
    burst.cpuMs.push(burstRun.cpuMs / all.arrived);

    const receiver = await startBenchReceiver({
      ...MEASURED,
      refuseFirstTry: false,
      onError: () => undefined,
    });
    try {
      const target = { url: receiver.url, ...MEASURED, count: burstWebhooks };
      const one = await bareDeliveries({ ...target, concurrency: 1 });
      bare.p95.push(percentile(one.latencies, 95));
      bare.perSecond.push(
        (await bareDeliveries({ ...target, concurrency: dispatcher.concurrency })).perSecond,
      );
    } finally {
      await receiver.close();
    }
    log(
      `  repeat ${r + 1}: paced p95 ${Math.round(pacedP95[r])} ms; beside a healthy partner p95 ` +
        `${Math.round(besideHealthy[r])} ms; beside a black hole p95 ` +
        `${formatMs(blackHoled[r])} (${beside.arrived}/${beside.expected} arrived); burst ` +
        `${Math.round(burst.perSecond[r])}/s, p95 ${Math.round(burst.p95[r])} ms, CPU ` +
        `${burst.cpuMs[r].toFixed(2)} ms per webhook; bare p95 ${bare.p95[r].toFixed(1)} ms, ` +
        `${Math.round(bare.perSecond[r])}/s`,
    );
  }
  const pace = `${paced.perSecond} attempts/s`;
  return {
    figures: [
      {
        scenario: `4. webhooks, fast receiver, paced (${pace})`,
        name: 'append → verified at the receiver, p95',
        unit: 'ms',
        samples: pacedP95,
        baseline: { label: 'deliverWebhook alone', samples: bare.p95 },
        target: { on: 'measured', op: '≤', value: P95_TARGET_MS },
      },
      {
        scenario: `4. webhooks, another partner black-holed (${pace})`,
        name: "measured partner's p95",
        unit: 'ms',
        samples: blackHoled,
        baseline: { label: 'its p95 beside a healthy partner', samples: besideHealthy },
        target: { on: 'ratio', op: '≤', value: UNCHANGED_TARGET },
      },
      {
        scenario: `4. webhooks, fast receiver, burst of ${burstWebhooks}`,
        name: 'deliveries/s',
        unit: '/s',
        samples: burst.perSecond,
        baseline: {
          label: `deliverWebhook alone, ${dispatcher.concurrency} at a time`,
          samples: bare.perSecond,
        },
        ratioAs: 'percent',
      },
      {
        scenario: `4. webhooks, fast receiver, burst of ${burstWebhooks}`,
        name: 'append → verified, p95 (queueing behind the burst)',
        unit: 'ms',
        samples: burst.p95,
        baseline: { label: 'deliverWebhook alone', samples: bare.p95 },
        ratioAs: 'none',
      },
    ],
    notes: [
      `Webhooks: dispatcher defaults (tick ${dispatcher.tickMs} ms, try timeout ${dispatcher.timeoutMs / 1000} s, ` +
        `concurrency ${dispatcher.concurrency}). Paced: ${paced.attempts} attempts per partner started at ` +
        `${pace} (${paced.perSecond * LIFECYCLE.length} webhooks/s), their ${LIFECYCLE.length} lifecycle events ` +
        `spread evenly; beside it a second partner gets the same, its endpoint fast (the baseline) or black-holed. Burst: ${options.webhookAttempts} attempts × ` +
        `${LIFECYCLE.length} events appended as fast as the store takes them; its p95 is queueing, not a target. ` +
        `A black-holed run waits at most ${options.webhookWaitMs / 1000} s, and a webhook not arrived by then ` +
        `counts as never (p95 ∞).`,
      `Webhooks burst: CPU per webhook ${formatCpu(burst.cpuMs)} (this process from the first append to the last ` +
        `arrival: appends, outbox, dispatcher, SQLite and the verifying receiver).`,
    ],
  };
}

function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${Math.round(ms)} ms` : '∞';
}

function formatCpu(samples: number[]): string {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  return `${ms(percentile(samples, 50))} (${ms(Math.min(...samples))}–${ms(Math.max(...samples))})`;
}
