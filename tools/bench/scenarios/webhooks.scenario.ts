import { DEFAULT_WEBHOOKS_OPTIONS } from '@svc/webhooks';
import { type ScenarioResult } from '../bench-figure';
import { log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { bareDeliveries } from '../baseline/bare-deliveries';
import { percentile } from '../quote-stats';
import { startBenchReceiver } from '../webhook-receiver-server';
import { LIFECYCLE } from '../webhook-lifecycle';
import { runWebhookDelivery } from '../webhook-run';

const P95_TARGET_MS = 250;
/** "Unchanged": the measured partner's p95 with a black-holed neighbour within this multiple of its p95 without. */
const UNCHANGED_TARGET = 1.5;
const MEASURED = { partnerId: 'bench-partner', secret: 'bench-webhook-secret-0123456789abcdef' };
const BLACK_HOLED = { partnerId: 'bench-black-holed', secret: 'bench-black-hole-secret-0123456789ab' };

/**
 * Scenario 4: attempt lifecycle webhooks through WebhooksModule (runWebhookDelivery, the dispatcher's defaults) to a
 * fast verifying receiver; the same with a second partner whose endpoint is a black hole; and, as the baseline, the
 * dispatcher's one-try function called straight at a receiver. Runs in this process, not in the service child: the
 * appends must be this process's so their time is known to the millisecond.
 */
export async function webhooksScenario(options: BenchOptions): Promise<ScenarioResult> {
  const webhooks = options.webhookAttempts * LIFECYCLE.length;
  const dispatcher = { ...DEFAULT_WEBHOOKS_OPTIONS };
  const fast = { p95: [] as number[], perSecond: [] as number[] };
  const blackHoled: number[] = [];
  const bare = { p95: [] as number[], perSecond: [] as number[] };
  const measured = { ...MEASURED, attempts: options.webhookAttempts, endpoint: 'receiver' as const };
  for (let r = 0; r < options.repeats; r += 1) {
    const alone = (
      await runWebhookDelivery({ partners: [measured], options: dispatcher, waitMs: options.webhookWaitMs })
    ).byPartner.get(MEASURED.partnerId)!;
    fast.p95.push(percentile(alone.latencies, 95));
    fast.perSecond.push(alone.arrived / (alone.wallMs / 1000));

    const beside = (
      await runWebhookDelivery({
        partners: [measured, { ...BLACK_HOLED, attempts: options.webhookAttempts, endpoint: 'black-hole' }],
        options: dispatcher,
        waitMs: options.webhookWaitMs,
        allowMissing: true,
      })
    ).byPartner.get(MEASURED.partnerId)!;
    blackHoled.push(percentile(beside.latencies, 95));

    const receiver = await startBenchReceiver({
      ...MEASURED,
      refuseFirstTry: false,
      onError: () => undefined,
    });
    try {
      const target = { url: receiver.url, ...MEASURED, count: webhooks };
      const one = await bareDeliveries({ ...target, concurrency: 1 });
      bare.p95.push(percentile(one.latencies, 95));
      bare.perSecond.push(
        (await bareDeliveries({ ...target, concurrency: dispatcher.concurrency })).perSecond,
      );
    } finally {
      await receiver.close();
    }
    log(
      `  repeat ${r + 1}: p95 ${Math.round(fast.p95[r])} ms, ${Math.round(fast.perSecond[r])}/s; beside a black ` +
        `hole p95 ${formatMs(blackHoled[r])} (${beside.arrived}/${beside.expected} arrived); bare p95 ` +
        `${bare.p95[r].toFixed(1)} ms, ${Math.round(bare.perSecond[r])}/s`,
    );
  }
  const scenario = '4. webhooks, fast receiver';
  return {
    figures: [
      {
        scenario,
        name: 'append → verified at the receiver, p95',
        unit: 'ms',
        samples: fast.p95,
        baseline: { label: 'deliverWebhook alone', samples: bare.p95 },
        target: { on: 'measured', op: '≤', value: P95_TARGET_MS },
      },
      {
        scenario,
        name: 'deliveries/s',
        unit: '/s',
        samples: fast.perSecond,
        baseline: {
          label: `deliverWebhook alone, ${dispatcher.concurrency} at a time`,
          samples: bare.perSecond,
        },
        ratioAs: 'percent',
      },
      {
        scenario: '4. webhooks, another partner black-holed',
        name: "measured partner's p95",
        unit: 'ms',
        samples: blackHoled,
        baseline: { label: 'its p95 alone', samples: fast.p95 },
        target: { on: 'ratio', op: '≤', value: UNCHANGED_TARGET },
      },
    ],
    notes: [
      `Webhooks: ${options.webhookAttempts} attempts × ${LIFECYCLE.length} lifecycle events (${webhooks} webhooks) ` +
        `per partner and run, dispatcher defaults (tick ${dispatcher.tickMs} ms, try timeout ` +
        `${dispatcher.timeoutMs / 1000} s, concurrency ${dispatcher.concurrency}); a black-holed run waits at most ` +
        `${options.webhookWaitMs / 1000} s, and a webhook not arrived by then counts as never (p95 ∞).`,
    ],
  };
}

function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${Math.round(ms)} ms` : '∞';
}
