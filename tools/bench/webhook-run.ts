import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type INestApplication } from '@nestjs/common';
import { attemptStreamId } from '@svc/domain';
import { SqliteEventStore } from '@svc/event-store';
import { PARTNER_DEFAULTS, type PartnerConfig } from '@svc/platform';
import { type WebhooksOptions } from '@svc/webhooks';
import { BenchFailure } from './bench-failure';
import { type BlackHole, startBlackHole } from './black-hole-server';
import { createWebhookPipeline } from './webhook-pipeline';
import { type Appended, checkWebhookArrivals, type WebhookDelivered } from './check-webhook-arrivals';
import { LIFECYCLE } from './webhook-lifecycle';
import { type BenchReceiver, startBenchReceiver } from './webhook-receiver-server';
import { benchPrepared } from './webhook-seed';

export interface WebhookPartnerPlan {
  partnerId: string;
  secret: string;
  attempts: number;
  /** `receiver`: a verifying receiver, measured. `black-hole`: accepts the connection and never answers. */
  endpoint: 'receiver' | 'black-hole';
  /** Receiver only: answer 503 to the first try of every event. */
  refuseFirstTry?: boolean;
}

export interface WebhookRun {
  byPartner: Map<string, WebhookDelivered>;
  /** How long the timed appends took, all partners. */
  appendMs: number;
  /** CPU this process spent from the first timed append until every receiver had its webhooks (or the wait ended). */
  cpuMs: number;
}

/**
 * One webhook delivery run through WebhooksModule (outbox relay and dispatcher over the in-process bus and a fresh
 * SQLite store, as the standalone service composes them): appends AttemptPrepared for every partner's attempts
 * (untimed), then the three lifecycle events of each attempt, attempts of the partners interleaved, and waits until
 * every receiver has them all or `waitMs` passed. Without `attemptsPerSecond` the lifecycle events are appended as
 * fast as the store takes them (a burst: throughput); with it, at a steady pace of that many attempts per second and
 * partner, their three events spread evenly over the attempt's slot (latency below capacity). Checks what arrived: known eventIds, each processed once, per
 * attempt in lifecycle order, no answer but 200 or the injected 503. Missing webhooks fail the run unless
 * `allowMissing` (then they count as never arrived).
 */
export async function runWebhookDelivery(params: {
  partners: WebhookPartnerPlan[];
  options: WebhooksOptions;
  waitMs: number;
  allowMissing?: boolean;
  attemptsPerSecond?: number;
}): Promise<WebhookRun> {
  const work = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const receiverErrors: unknown[] = [];
  const receivers = new Map<string, BenchReceiver>();
  const holes: BlackHole[] = [];
  let app: INestApplication | undefined;
  const store = SqliteEventStore.open({ file: join(work, 'events.sqlite'), pollIntervalMs: 5 });
  try {
    const configs: PartnerConfig[] = [];
    for (const plan of params.partners) {
      let callbackUrl: string;
      if (plan.endpoint === 'receiver') {
        const receiver = await startBenchReceiver({
          partnerId: plan.partnerId,
          secret: plan.secret,
          refuseFirstTry: plan.refuseFirstTry ?? false,
          onError: (error) => receiverErrors.push(error),
        });
        receivers.set(plan.partnerId, receiver);
        callbackUrl = receiver.url;
      } else {
        const hole = await startBlackHole();
        holes.push(hole);
        callbackUrl = hole.url;
      }
      configs.push({
        ...PARTNER_DEFAULTS,
        partnerId: plan.partnerId,
        secret: plan.secret,
        authVersion: 2,
        callbackUrl,
      });
    }
    app = await createWebhookPipeline({ store, partners: configs, options: params.options });

    // Untimed: every attempt exists before the first lifecycle event.
    const attemptsOf = (plan: WebhookPartnerPlan) =>
      Array.from({ length: plan.attempts }, (_, i) => `at_bench_${plan.partnerId}_${i}`);
    for (const plan of params.partners) {
      for (const attemptId of attemptsOf(plan)) {
        const data = { ...benchPrepared(attemptId, plan.partnerId, Date.now()) };
        await store.append(
          attemptStreamId(attemptId),
          [{ id: randomUUID(), type: 'AttemptPrepared', data }],
          {
            expectedRevision: 'no_stream',
          },
        );
      }
    }

    // Timed: the three lifecycle events per attempt, one append each, the partners' attempts taking turns; paced,
    // event k of attempt i is due at (i + k / 3) / attemptsPerSecond (appended late rather than early).
    const appended: Appended = new Map();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const rounds = Math.max(...params.partners.map((p) => p.attempts));
    const pace = params.attemptsPerSecond;
    for (let i = 0; i < rounds; i += 1) {
      for (const [revision, { type, kind }] of LIFECYCLE.entries()) {
        if (pace !== undefined) {
          const due = started + ((i + revision / LIFECYCLE.length) / pace) * 1000;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        for (const plan of params.partners.filter((p) => i < p.attempts)) {
          const attemptId = attemptsOf(plan)[i];
          const id = randomUUID();
          await store.append(attemptStreamId(attemptId), [{ id, type, data: { at: Date.now() } }], {
            expectedRevision: revision,
          });
          appended.set(id, { partnerId: plan.partnerId, attemptId, kind, at: performance.now() });
        }
      }
    }
    const appendMs = performance.now() - started;

    const expectedOf = (partnerId: string) =>
      params.partners.find((p) => p.partnerId === partnerId)!.attempts * LIFECYCLE.length;
    const deadline = started + params.waitMs;
    const complete = () => [...receivers].every(([id, r]) => r.arrivals.size >= expectedOf(id));
    while (!complete() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const cpu = process.cpuUsage(cpuBefore);

    const byPartner = new Map<string, WebhookDelivered>();
    for (const [partnerId, receiver] of receivers) {
      const expected = expectedOf(partnerId);
      if (receiver.arrivals.size < expected && !params.allowMissing) {
        throw new BenchFailure(
          `${partnerId}: ${receiver.arrivals.size}/${expected} webhooks arrived within ${params.waitMs / 1000} s`,
        );
      }
      byPartner.set(partnerId, checkWebhookArrivals(partnerId, receiver, appended, expected, started));
    }
    const unexpected = [...receivers.values()].reduce((n, r) => n + r.posts.non200 - r.posts.refused503, 0);
    if (unexpected !== 0 || receiverErrors.length > 0) {
      throw new BenchFailure(
        `${unexpected} tries answered neither 200 nor the injected 503; receiver errors: ` +
          receiverErrors.map((e) => String(e)).join('; '),
      );
    }
    return { byPartner, appendMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    // The black holes first: their held tries then end at once instead of holding the app's close.
    await Promise.all(holes.map((h) => h.close()));
    await app?.close();
    await Promise.all([...receivers.values()].map((r) => r.close()));
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
}
