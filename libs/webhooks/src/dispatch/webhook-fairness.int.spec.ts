import { type ServerResponse } from 'node:http';
import { ChainRegistry } from '@svc/chains';
import { prepared } from '@svc/domain/attempt-fixture';
import { eventIdFrom, MemoryEventStore } from '@svc/event-store';
import { type PartnerConfig, PARTNER_DEFAULTS, PartnerDirectory } from '@svc/platform';
import { ManualClock } from '@svc/testing';
import { type LoopbackServer, startLoopbackServer } from '../delivery/loopback-server.test-helper';
import { DEFAULT_WEBHOOKS_OPTIONS } from '../webhooks.options';
import { WebhookDispatcher } from './webhook-dispatcher';
import { loadWebhooks } from './webhook-stream';
import { recordLifecycle } from './recorded-lifecycle.test-helper';

/**
 * Security review M8 over HTTP on loopback: partner A's endpoint accepts the connection and never answers, partner
 * B's answers at once. B's webhooks must not wait for A's tries; A's breaker opens after its failures, lets nothing
 * through during the cool-down, and once A answers again every webhook of A arrives, in order per attempt, once.
 */
const TIMEOUT_MS = 3_000;
const COOL_DOWN_MS = 60_000;
const EVENTS = ['wallet_submitted', 'settled'] as const;

describe('WebhookDispatcher with one partner black-holed', () => {
  const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
  const store = new MemoryEventStore({ clock: () => new Date(clock.now()) });
  let aAnswers = false;
  const hanging: ServerResponse[] = [];
  /** The event ids A answered 200 to, in arrival order. */
  const answeredByA: string[] = [];
  let a: LoopbackServer;
  let b: LoopbackServer;
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    a = await startLoopbackServer((res, request) => {
      if (!aAnswers) return void hanging.push(res);
      answeredByA.push(String(request.headers['x-service-event-id']));
      res.writeHead(200).end();
    });
    b = await startLoopbackServer((res) => res.writeHead(200).end());
    const partner = (partnerId: string, callbackUrl: string): PartnerConfig => ({
      ...PARTNER_DEFAULTS,
      partnerId,
      secret: `${partnerId}-webhook-secret-0123`,
      authVersion: 2,
      callbackUrl,
    });
    dispatcher = new WebhookDispatcher(
      store,
      new PartnerDirectory([partner('partner-a', a.url), partner('partner-b', b.url)]),
      new ChainRegistry([]),
      clock,
      {
        ...DEFAULT_WEBHOOKS_OPTIONS,
        tickMs: 0,
        timeoutMs: TIMEOUT_MS,
        concurrency: 3,
        breaker: { failureThreshold: 2, coolDownMs: COOL_DOWN_MS },
      },
      { instanceId: 'fairness-test', shardCount: 4, leaseTtlMs: 3_600_000 },
    );
    await dispatcher.tick(); // takes the leases
  });
  afterAll(async () => {
    await dispatcher.idle();
    for (const res of hanging) res.destroy();
    await Promise.all([a.close(), b.close()]);
  });

  async function queueAttempt(attemptId: string, partnerId: string): Promise<void> {
    await store.append(
      `attempt-${attemptId}`,
      [
        {
          id: eventIdFrom(attemptId, 'prepared'),
          type: 'AttemptPrepared',
          data: { ...prepared, attemptId, partnerId },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    for (const message of await recordLifecycle(store, attemptId, EVENTS, clock.now()))
      await dispatcher.queue(message);
  }
  const eventIds = (server: LoopbackServer) =>
    server.received.map((request) => String(request.headers['x-service-event-id']));
  const statuses = async (attemptId: string) => {
    const { state } = await loadWebhooks(store, attemptId);
    return state.status === 'active' ? state.entries.map((entry) => entry.status) : [];
  };
  const until = async (check: () => boolean | Promise<boolean>, withinMs: number, what: string) => {
    const deadline = Date.now() + withinMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const aAttempts = Array.from({ length: 6 }, (_, i) => `at_a${i}`);
  const bAttempts = Array.from({ length: 30 }, (_, i) => `at_b${i}`);

  it("delivers every webhook of B while A's first tries still hang, A holding only its own slots", async () => {
    const started = Date.now();
    for (const [i, attemptId] of bAttempts.entries()) {
      if (i < aAttempts.length) await queueAttempt(aAttempts[i], 'partner-a');
      await queueAttempt(attemptId, 'partner-b');
    }
    const allDelivered = async () =>
      (await Promise.all(bAttempts.map(statuses))).every((s) => s.join() === 'delivered,delivered');
    await until(allDelivered, TIMEOUT_MS, "B's webhooks delivered and recorded");

    // None of A's tries has ended yet: B never waited for one of them.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    expect(await Promise.all(aAttempts.map(statuses))).toEqual(aAttempts.map(() => ['queued', 'queued']));
    expect(hanging).toHaveLength(3); // A's three slots, all hanging
    for (const attemptId of bAttempts) {
      const ids = EVENTS.map((event) => eventIdFrom(attemptId, event));
      expect(eventIds(b).filter((id) => ids.includes(id))).toEqual(ids);
    }
    expect(b.received).toHaveLength(2 * bAttempts.length);
  });

  it("opens A's breaker after its tries time out, and tries nothing of A during the cool-down", async () => {
    await dispatcher.idle(); // A's two tries time out; the breaker opens; A's waiting runs are held
    const tried = hanging.length;
    const failed = (await Promise.all(aAttempts.map(statuses))).filter((s) => s[0] === 'retrying');
    // Each hung try recorded as a time-out. One more may have taken the slot freed by the first time-out, before the
    // second one reached the threshold; after that, nothing.
    expect(failed).toHaveLength(tried);
    expect(tried).toBeLessThanOrEqual(4);

    aAnswers = true; // A is back, but its breaker does not know yet
    clock.advance(COOL_DOWN_MS - 1);
    await dispatcher.tick();
    expect(a.received).toHaveLength(tried);
  });

  it('lets one trial through after the cool-down; once it is answered, every webhook of A arrives in order, once', async () => {
    clock.advance(1);
    await dispatcher.tick();

    for (const attemptId of aAttempts) {
      expect(await statuses(attemptId)).toEqual(['delivered', 'delivered']);
      const ids = EVENTS.map((event) => eventIdFrom(attemptId, event));
      expect(answeredByA.filter((id) => ids.includes(id))).toEqual(ids);
    }
    expect(answeredByA).toHaveLength(2 * aAttempts.length);
  });
});
