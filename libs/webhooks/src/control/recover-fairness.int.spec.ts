import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type DynamicModule, Global, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { CHAIN_REGISTRY, ChainRegistry } from '@svc/chains';
import { validateWebhookRecoverRequest, type WebhookRecoverRange } from '@svc/contract';
import { attemptStreamId, webhookStreamId } from '@svc/domain';
import { prepared } from '@svc/domain/attempt-fixture';
import { EVENT_STORE, openReadModelDatabase, READ_MODELS, SqliteEventStore } from '@svc/event-store';
import { WORK_SHARING } from '@svc/leases';
import {
  InProcessBroker,
  InProcessClient,
  InProcessServer,
  MESSAGE_BUS,
  NestMessageBus,
} from '@svc/messaging';
import { CLOCK, PARTNER_DEFAULTS, PARTNER_DIRECTORY, PartnerDirectory, systemClock } from '@svc/platform';
import { WEBHOOKS_OPTIONS, DEFAULT_WEBHOOKS_OPTIONS } from '../webhooks.options';
import { WebhooksModule } from '../webhooks.module';
import { WebhookControlService } from './webhook-control.service';
import { partnerRequest } from './partner-request.test-helper';

/**
 * Security review N-M10, measured: partner A recovers a large range (RECOVERED attempts, paging through it with the
 * continuation) while partner B's attempts keep producing webhooks. Everything runs as the standalone service
 * composes it (WebhooksModule: outbox relay, dispatcher and control plane over the in-process bus, a SQLite store on
 * a temp file), delivering over HTTP on loopback to one receiver per partner. The receivers run in a process of their
 * own, as partners' endpoints do: their work is not the service's, and they note when each webhook arrived.
 *
 * B's latency, from the append of its lifecycle event to its receiver getting the webhook, is measured side by side:
 * B's load runs throughout, and the time alternates between windows with A's recovery (a page recovered, until A's
 * receiver has every webhook it sent again) and windows of the same length without it. Alternating keeps whatever
 * else runs on the machine from favouring either side. B's p95 with the recovery must stay within 1.5× of without.
 * Before the measurement, a small recovery of other attempts of A runs once (the first one runs code nothing ran yet).
 */
const RECOVERED = 2_000;
const WARM_UP = 50;
const DAY_MS = 86_400_000;
/** B's pace: one lifecycle event every PACE_MS, each attempt's three events in turn. */
const PACE_MS = 50;
const LIFECYCLE = ['AttemptWalletSubmitted', 'AttemptProviderPending', 'AttemptSettled'] as const;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** Epoch ms with sub-millisecond resolution, comparable with the receivers' process. */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, withinMs: number, what: string): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(5);
  }
}
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * p) - 1)];

describe('a large recovery of one partner beside another partner’s webhooks', () => {
  let dir: string;
  let store: SqliteEventStore;
  let app: INestApplication;
  let receivers: Receivers;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'recover-fairness-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 5 });
    receivers = await startReceivers();

    // Given: A's attempts, each with a lifecycle webhook delivered long ago, one a second from T0; and WARM_UP more
    // the day before, recovered before the measurement (the first recovery runs code nothing ran yet).
    for (let i = -WARM_UP; i < RECOVERED; i++) {
      const attemptId = `at_a${i}`;
      const eventId = `${attemptId}-settled`;
      const occurredAt = i < 0 ? T0 - DAY_MS + (WARM_UP + i) * 1000 : T0 + i * 1000;
      const data = { ...prepared, attemptId, partnerId: 'partner-a' };
      await store.append(attemptStreamId(attemptId), [{ id: randomUUID(), type: 'AttemptPrepared', data }], {
        expectedRevision: 'no_stream',
      });
      await store.append(
        webhookStreamId(attemptId),
        [
          {
            id: randomUUID(),
            type: 'WebhookQueued',
            data: {
              eventId,
              event: 'settled',
              attemptId,
              partnerId: 'partner-a',
              lifecycleRevision: 0,
              occurredAt,
              queuedAt: occurredAt,
            },
          },
          {
            id: randomUUID(),
            type: 'WebhookDelivered',
            data: { eventId, attempt: 1, at: occurredAt + 20, httpStatus: 200, latencyMs: 8 },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    }
    app = await startWebhooks(store, { 'partner-a': receivers.urls.a, 'partner-b': receivers.urls.b });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await receivers?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** B's lifecycle events, appended every PACE_MS until `stop()`: when each was appended, by event id. */
  function loadOfB(round: number): { appended: Map<string, number>; stop: () => Promise<void> } {
    const appended = new Map<string, number>();
    let stopped = false;
    const run = (async () => {
      const started = performance.now();
      let attemptId = '';
      for (let n = 0; !stopped; n++) {
        const revision = n % LIFECYCLE.length;
        if (revision === 0) {
          attemptId = `at_b${round}_${n}`;
          const data = { ...prepared, attemptId, partnerId: 'partner-b' };
          await store.append(
            attemptStreamId(attemptId),
            [{ id: randomUUID(), type: 'AttemptPrepared', data }],
            {
              expectedRevision: 'no_stream',
            },
          );
        }
        const id = randomUUID();
        const at = now();
        await store.append(
          attemptStreamId(attemptId),
          [{ id, type: LIFECYCLE[revision], data: { at: Date.now() } }],
          { expectedRevision: revision },
        );
        appended.set(id, at);
        await sleep(Math.max(0, started + (n + 1) * PACE_MS - performance.now()));
      }
    })();
    // A test that timed out never calls stop(): its loop then fails on the store afterAll closed, and that rejection,
    // unhandled, took the whole jest run down with it. stop() still awaits `run` and sees a real failure.
    run.catch(() => undefined);
    return {
      appended,
      stop: async () => {
        stopped = true;
        await run;
      },
    };
  }

  /** One page of A's recovery of [from, to): its attempts and how long the call took. */
  async function recoverPage(from: number, to: number, continuation: string | undefined) {
    const body = validateWebhookRecoverRequest({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      ...(continuation === undefined ? {} : { continuation }),
    });
    if (!body.ok) throw new Error(JSON.stringify(body.errors));
    const request = partnerRequest<WebhookRecoverRange>('partner-a', body.value);
    const started = performance.now();
    const reply = await app.get(WebhookControlService).recover(request);
    if (!reply.ok) throw new Error(reply.message);
    return {
      tookMs: performance.now() - started,
      attempts: new Set(reply.body.recovered.map((r) => r.attemptId)).size,
      continuation: reply.body.continuation,
    };
  }

  /**
   * One measurement: A recovers its 2 000 attempts page by page while B's load runs, windows with and without the
   * recovery alternating; B's webhook latencies in each kind of window.
   */
  async function measure(round: number) {
    const load = loadOfB(round);
    await sleep(500);
    const base = receivers.arrivalsA();
    // Windows [start, end): with A's recovery (a page, until A's receiver has all it sent again), then without.
    const windows: { recovering: boolean; start: number; end: number }[] = [];
    const calls: number[] = [];
    let recovered = 0;
    let continuation: string | undefined;
    do {
      const start = now();
      const page = await recoverPage(T0, T0 + RECOVERED * 1000, continuation);
      calls.push(page.tookMs);
      recovered += page.attempts;
      continuation = page.continuation;
      await until(() => receivers.arrivalsA() >= base + recovered, 60_000, "a page's webhooks at A");
      const end = now();
      windows.push({ recovering: true, start, end });
      await sleep(end - start);
      windows.push({ recovering: false, start: end, end: now() });
    } while (continuation !== undefined);
    await load.stop();
    await until(
      () => [...load.appended.keys()].every((id) => receivers.arrivedB.has(id)),
      30_000,
      "B's webhooks",
    );

    const latencies = (recovering: boolean) =>
      [...load.appended]
        .filter(([, at]) => windows.some((w) => w.recovering === recovering && at >= w.start && at < w.end))
        .map(([id, at]) => (receivers.arrivedB.get(id) ?? Number.POSITIVE_INFINITY) - at);
    const withRecovery = latencies(true);
    const without = latencies(false);
    const summary = (values: number[]) =>
      `p50 ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms, ` +
      `max ${Math.max(...values).toFixed(1)} ms over ${values.length} webhooks`;
    const recoveringMs = windows.filter((w) => w.recovering).reduce((sum, w) => sum + w.end - w.start, 0);
    process.stdout.write(
      `recover fairness (SQLite, loopback), measurement ${round}:\n` +
        `  A: ${recovered} attempts recovered in ${calls.length} calls of ${Math.round(Math.min(...calls))}–` +
        `${Math.round(Math.max(...calls))} ms (p50 ${Math.round(percentile(calls, 0.5))} ms); ` +
        `${receivers.arrivalsA() - base} webhooks sent again, ${Math.round(recoveringMs)} ms in all\n` +
        `  B without A's recovery: ${summary(without)}\n` +
        `  B with A's recovery:    ${summary(withRecovery)}\n`,
    );
    expect(recovered).toBe(RECOVERED);
    expect(receivers.arrivalsA()).toBe(base + RECOVERED);
    expect(withRecovery.length).toBeGreaterThan(50);
    expect(without.length).toBeGreaterThan(50);
    return { withRecovery, without };
  }

  it('keeps B’s p95 latency within 1.5× of the same load without the recovery', async () => {
    // Warm-up: B's webhooks, and a small recovery of A the day before.
    const warmUp = loadOfB(0);
    await sleep(500);
    expect((await recoverPage(T0 - DAY_MS, T0, undefined)).attempts).toBe(WARM_UP);
    await until(() => receivers.arrivalsA() >= WARM_UP, 30_000, "A's warm-up webhooks");
    await warmUp.stop();
    await sleep(500);

    // The bound separates fair turns (about 1.1x here) from turns without pacing (about 2x) and no turns (5x); on
    // two shared cores one stray pause of the machine can push a p95 of 15 ms a few ms over. So a measurement over
    // the bound is taken again once, and the second must hold: unfairness fails both.
    let measured = await measure(1);
    const ratio = () => percentile(measured.withRecovery, 0.95) / percentile(measured.without, 0.95);
    if (ratio() > 1.5) {
      process.stdout.write(`  p95 ratio ${ratio().toFixed(2)} over 1.5: measuring again\n`);
      measured = await measure(2);
    }
    expect(percentile(measured.withRecovery, 0.95)).toBeLessThanOrEqual(
      1.5 * percentile(measured.without, 0.95),
    );
  }, 420_000);
});

interface Receivers {
  urls: { a: string; b: string };
  /** How many webhooks A's receiver got. */
  arrivalsA: () => number;
  /** When each webhook first reached B's receiver (epoch ms), by eventId. */
  arrivedB: Map<string, number>;
  close: () => Promise<void>;
}

/** Answers 200 to everything; reports each arrival (receiver, eventId, epoch ms with sub-ms precision) in batches. */
const RECEIVERS = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
let batch = [];
setInterval(() => { if (batch.length > 0) { process.send(batch); batch = []; } }, 10).unref();
const start = (name) => new Promise((resolve) => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      batch.push([name, String(req.headers['x-service-event-id']), performance.timeOrigin + performance.now()]);
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1', () => resolve(server.address().port));
});
Promise.all([start('a'), start('b')]).then(([a, b]) => process.send({ a, b }));
process.on('disconnect', () => process.exit(0));
`;

async function startReceivers(): Promise<Receivers> {
  const child: ChildProcess = spawn(process.execPath, ['-e', RECEIVERS], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let arrivalsA = 0;
  const arrivedB = new Map<string, number>();
  const ports = await new Promise<{ a: number; b: number }>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: unknown) => {
      if (!Array.isArray(message)) return resolve(message as { a: number; b: number });
      for (const [name, eventId, at] of message as [string, string, number][]) {
        if (name === 'a') arrivalsA += 1;
        else if (!arrivedB.has(eventId)) arrivedB.set(eventId, at);
      }
    });
  });
  return {
    urls: { a: `http://127.0.0.1:${ports.a}/hooks/a`, b: `http://127.0.0.1:${ports.b}/hooks/b` },
    arrivalsA: () => arrivalsA,
    arrivedB,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

/** WebhooksModule as the standalone service composes it, over an in-process bus and the given store. */
async function startWebhooks(
  store: SqliteEventStore,
  callbacks: Record<string, string>,
): Promise<INestApplication> {
  const broker = new InProcessBroker();
  const partners = Object.entries(callbacks).map(([partnerId, callbackUrl]) => ({
    ...PARTNER_DEFAULTS,
    partnerId,
    secret: `${partnerId}-webhook-secret-0123`,
    authVersion: 2 as const,
    callbackUrl,
  }));

  @Global()
  @Module({})
  class PortsModule {
    static bind(): DynamicModule {
      const providers = [
        { provide: EVENT_STORE, useValue: store },
        { provide: READ_MODELS, useValue: openReadModelDatabase(':memory:') },
        { provide: PARTNER_DIRECTORY, useValue: new PartnerDirectory(partners) },
        { provide: MESSAGE_BUS, useValue: new NestMessageBus(new InProcessClient(broker)) },
        { provide: CLOCK, useValue: systemClock },
        { provide: CHAIN_REGISTRY, useValue: new ChainRegistry([]) },
        { provide: WEBHOOKS_OPTIONS, useValue: DEFAULT_WEBHOOKS_OPTIONS },
        {
          provide: WORK_SHARING,
          useValue: { instanceId: 'recover-fairness', shardCount: 4, leaseTtlMs: 15_000 },
        },
      ];
      return { module: PortsModule, providers, exports: providers.map((p) => p.provide) };
    }
  }

  @Module({ imports: [PortsModule.bind(), WebhooksModule] })
  class TestWebhooksModule {}

  const app = await NestFactory.create(TestWebhooksModule, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  app.connectMicroservice({ strategy: new InProcessServer(broker) }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  await app.init();
  return app;
}
