import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { ChainRegistry } from '@svc/chains';
import { eventIdFrom, MemoryEventStore } from '@svc/event-store';
import { verifyWebhook } from '@svc/partner-client';
import { PartnerDirectory } from '@svc/platform';
import { ManualClock } from '@svc/testing';
import { DEFAULT_WEBHOOKS_OPTIONS } from '../webhooks.options';
import { webhookMetrics } from './webhook-metrics';
import { WebhookDispatcher } from './webhook-dispatcher';
import { decideWebhooks, loadWebhooks } from './webhook-stream';
import { recordLifecycle } from './recorded-lifecycle.test-helper';

/**
 * The dispatcher against a real receiver on loopback that fails in every way the spec names, checked against the
 * retry schedule on a controllable clock: what is tried when, and what is recorded.
 */
type Script = (req: IncomingMessage, res: ServerResponse) => void;
const answer =
  (status: number, headers: Record<string, string> = {}): Script =>
  (req, res) => {
    req.resume();
    res.writeHead(status, headers).end();
  };
const hang: Script = (req) => req.resume();

describe('WebhookDispatcher on a controllable clock', () => {
  let server: Server;
  const script: Script[] = [];
  const seen: { eventId: string; verified: boolean }[] = [];
  const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
  const store = new MemoryEventStore({ clock: () => new Date(clock.now()) });
  const secret = 'dispatcher-test-secret-01';
  let dispatcher: WebhookDispatcher;
  let partners: PartnerDirectory;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const check = verifyWebhook(body, req.headers, { partnerId: 'p1', secret, nowMs: clock.now() });
        seen.push({ eventId: String(req.headers['x-service-event-id']), verified: check.ok });
      });
      const next = script.shift() ?? answer(200);
      next(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    partners = new PartnerDirectory([
      {
        partnerId: 'p1',
        secret,
        authVersion: 2,
        callbackUrl: url,
        maxFeeBps: 0,
        allowedProviders: [],
        rateLimitPerMinute: 100,
        enabled: true,
      },
    ]);
    dispatcher = new WebhookDispatcher(
      store,
      partners,
      new ChainRegistry([]),
      clock,
      { ...DEFAULT_WEBHOOKS_OPTIONS, tickMs: 0, timeoutMs: 300, concurrency: 4 },
      { instanceId: 'dispatcher-test', shardCount: 4, leaseTtlMs: 15_000 },
    );
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const prepared = (attemptId: string) => ({
    attemptId,
    intentSessionId: 'is_1',
    partnerId: 'p1',
    idempotencyKey: null,
    wallet: '0x0000000000000000000000000000000000000001',
    recipient: '0x0000000000000000000000000000000000000001',
    preparedAt: clock.now(),
    expiresAt: clock.now() + 30_000,
    evidenceDeadlineAt: clock.now() + 900_000,
    chainActions: [],
    walletAuthorization: { domain: { name: 'x', version: '1' }, types: {}, primaryType: 'X', message: {} },
    legs: [],
    walletContext: null,
  });

  async function attemptWithLifecycle(attemptId: string, kinds: ('wallet_submitted' | 'provider_pending')[]) {
    const data = prepared(attemptId);
    await store.append(
      `attempt-${attemptId}`,
      [{ id: eventIdFrom(attemptId, 'prepared'), type: 'AttemptPrepared', data }],
      { expectedRevision: 'no_stream' },
    );
    for (const message of await recordLifecycle(store, attemptId, kinds, clock.now()))
      await dispatcher.queue(message);
  }
  const entries = async (attemptId: string) => {
    const { state } = await loadWebhooks(store, attemptId);
    return state.status === 'active' ? state.entries : [];
  };
  const advance = async (ms: number) => {
    clock.advance(ms);
    await dispatcher.tick();
  };

  it('retries on the schedule: 500, timeout, redirect, then 429 whose Retry-After beats the schedule, then delivered', async () => {
    script.push(
      answer(500),
      hang,
      answer(302, { Location: 'http://127.0.0.1:1/elsewhere' }),
      answer(429, { 'Retry-After': '10800' }),
      answer(200),
    );
    await attemptWithLifecycle('a1', ['wallet_submitted']);
    await dispatcher.tick(); // queue() already tried once: 500
    const first = (await entries('a1'))[0];
    expect([first.status, first.attempts, first.lastStatus]).toEqual(['retrying', 1, 500]);
    const retryAt = first.nextAttemptAt! - clock.now();
    expect(retryAt).toBeGreaterThanOrEqual(4_500);
    expect(retryAt).toBeLessThanOrEqual(5_500);
    await advance(1_000); // not due yet: nothing sent
    expect(seen).toHaveLength(1);
    await advance(5_000); // 2nd try: the receiver hangs → timeout
    expect((await entries('a1'))[0].lastError).toBe('timeout');
    await advance(5.5 * 60_000); // 3rd try: a redirect is a failure and is not followed
    expect((await entries('a1'))[0].lastStatus).toBe(302);
    await advance(33 * 60_000); // 4th try: 429 Retry-After 3 h (the schedule would say 2 h)
    const limited = (await entries('a1'))[0];
    expect(limited.nextAttemptAt! - clock.now()).toBeGreaterThanOrEqual(10_800_000);
    await advance(2.5 * 3600_000); // past the schedule's 2 h, short of Retry-After: still waiting
    expect(seen).toHaveLength(4);
    await advance(3600_000); // 5th try: delivered
    expect((await entries('a1'))[0].status).toBe('delivered');
    expect(seen).toHaveLength(5);
    expect(seen.every((s) => s.verified && s.eventId === first.eventId)).toBe(true);
  });

  it("410 abandons at once and releases the attempt's next event, in order", async () => {
    script.push(answer(410), answer(200));
    seen.length = 0;
    await attemptWithLifecycle('a2', ['wallet_submitted', 'provider_pending']);
    await dispatcher.tick();
    const list = await entries('a2');
    expect(list.map((e) => [e.event, e.status])).toEqual([
      ['wallet_submitted', 'abandoned'],
      ['provider_pending', 'delivered'],
    ]);
    expect(seen.map((s) => s.eventId)).toEqual([
      eventIdFrom('a2', 'wallet_submitted'),
      eventIdFrom('a2', 'provider_pending'),
    ]);
  });

  it('queues nothing for a lifecycle message the attempt stream does not hold: forged or garbled, it is dropped and counted (N-M8)', async () => {
    seen.length = 0;
    await attemptWithLifecycle('a6', []);
    const [real] = await recordLifecycle(store, 'a6', ['wallet_submitted'], clock.now());
    const refused = async () =>
      (await webhookMetrics.lifecycleRefused.get()).values.reduce((sum, v) => sum + v.value, 0);
    const before = await refused();
    const forged = [
      { ...real, event: 'settled' as const }, // a settled the stream never recorded
      { ...real, eventId: eventIdFrom('a6', 'forged') },
      { ...real, occurredAt: real.occurredAt - 1 },
      { ...real, revision: 7 },
      { ...real, attemptId: 'a-missing' },
      { ...real, revision: -1 },
    ];
    for (const message of forged) await dispatcher.queue(message);
    await dispatcher.tick();

    expect(await refused()).toBe(before + forged.length);
    expect(await entries('a6')).toEqual([]);
    expect(seen).toEqual([]);
    await dispatcher.queue(real); // the message the stream holds is queued and sent
    await dispatcher.tick();
    expect((await entries('a6')).map((e) => [e.eventId, e.status])).toEqual([[real.eventId, 'delivered']]);
  });

  it('sends nothing to a callback whose address its WEBHOOK_ALLOWED_ADDRESSES do not allow (production default: none)', async () => {
    seen.length = 0;
    const own = new MemoryEventStore({ clock: () => new Date(clock.now()) });
    const strict = new WebhookDispatcher(
      own,
      partners,
      new ChainRegistry([]),
      clock,
      { ...DEFAULT_WEBHOOKS_OPTIONS, tickMs: 0, timeoutMs: 300, allowedCallbackAddresses: [] },
      { instanceId: 'dispatcher-strict', shardCount: 4, leaseTtlMs: 15_000 },
    );
    await own.append(
      'attempt-a7',
      [{ id: eventIdFrom('a7', 'prepared'), type: 'AttemptPrepared', data: prepared('a7') }],
      {
        expectedRevision: 'no_stream',
      },
    );
    const [message] = await recordLifecycle(own, 'a7', ['wallet_submitted'], clock.now());
    await strict.tick(); // takes the shards
    await strict.queue(message);
    await strict.tick();
    const { state } = await loadWebhooks(own, 'a7');
    const [entry] = state.status === 'active' ? state.entries : [];

    expect(seen).toEqual([]);
    expect([entry?.status, entry?.lastError, entry?.lastStatus]).toEqual([
      'retrying',
      'address_not_allowed',
      null,
    ]);
    await strict.onApplicationShutdown();
  });

  it('a queue written by someone else since the dispatcher last wrote it (a redelivery by the CLI) is not lost', async () => {
    seen.length = 0;
    const [walletSubmitted, providerPending] = [
      eventIdFrom('a5', 'wallet_submitted'),
      eventIdFrom('a5', 'provider_pending'),
    ];
    await attemptWithLifecycle('a5', ['wallet_submitted']);
    await dispatcher.tick();
    expect((await entries('a5')).map((e) => e.status)).toEqual(['delivered']);
    // The dispatcher holds the queue as it wrote it; the CLI appends behind its back, and before its next pass a
    // lifecycle message comes: decided on the stale copy, the append fails, and it is decided again on the stream.
    await decideWebhooks(store, 'a5', 'redeliver:test', {
      type: 'RequestRedelivery',
      data: { eventId: walletSubmitted, now: clock.now(), requestedBy: 'test' },
    });
    const [, pending] = await recordLifecycle(store, 'a5', ['provider_pending'], clock.now());
    await dispatcher.queue(pending);
    await dispatcher.tick();
    expect((await entries('a5')).map((e) => [e.eventId, e.status])).toEqual([
      [walletSubmitted, 'delivered'],
      [providerPending, 'delivered'],
    ]);
    expect(seen.map((s) => s.eventId)).toEqual([walletSubmitted, walletSubmitted, providerPending]);
    const types = (await store.readStream('webhook-a5')).map((e) => e.type);
    expect(types.filter((t) => t === 'WebhookQueued')).toHaveLength(2);
    expect(types.filter((t) => t === 'WebhookDelivered')).toHaveLength(3);
  });

  it("holds an attempt's second event until the first is delivered; other attempts do not wait", async () => {
    script.push(answer(503), answer(200), answer(200), answer(200));
    seen.length = 0;
    await attemptWithLifecycle('a3', ['wallet_submitted', 'provider_pending']); // a3's first try: 503
    await attemptWithLifecycle('a4', ['wallet_submitted']); // a4 is not held back by a3
    await dispatcher.tick();
    expect((await entries('a4'))[0].status).toBe('delivered');
    expect((await entries('a3')).map((e) => e.status)).toEqual(['retrying', 'queued']);
    await advance(6_000);
    await dispatcher.tick();
    expect((await entries('a3')).map((e) => e.status)).toEqual(['delivered', 'delivered']);
    const a3 = seen
      .filter(
        (s) =>
          s.eventId.length &&
          [eventIdFrom('a3', 'wallet_submitted'), eventIdFrom('a3', 'provider_pending')].includes(s.eventId),
      )
      .map((s) => s.eventId);
    expect(a3).toEqual([
      eventIdFrom('a3', 'wallet_submitted'),
      eventIdFrom('a3', 'wallet_submitted'),
      eventIdFrom('a3', 'provider_pending'),
    ]);
  });
});
