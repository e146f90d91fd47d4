import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { WEBHOOK_CONTROL_LIMITS } from '@svc/contract';
import { SqliteEventStore } from '@svc/event-store';
import { verifyWebhook } from '@svc/partner-client';
import { type PartnerConfig } from '@svc/platform';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  type PreparedForWallet,
  SandboxDriver,
  signedRequest,
  startSandboxProcess,
  type SandboxProcess,
  type TestPartner,
} from '@svc/testing';
import { AttemptEventStreams } from '@svc/gateway';
import { type Account, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { openLiveStatus } from './live-status-client';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON; the assertions check its shape
type Json = any;

/** A delivery the partner's receiver verified: the exact bytes it got and the event id header. */
interface Received {
  eventId: string;
  event: string;
  attemptId: string;
  body: string;
}

const LIFECYCLE = ['wallet_submitted', 'provider_pending', 'settled'];

/**
 * The webhook control plane and the live status stream end to end on the standalone service (SQLite, the provider
 * sandbox on anvil): a partner receiver on loopback verifies every delivery's signature and records the exact bytes,
 * and SSE clients follow attempts as they run. The stream carries the webhooks' ids and bodies byte for byte,
 * resumes after Last-Event-ID, and ends with the attempt; the list shows every try; a redelivery and a recovery send
 * the same event ids again, signed, in the original order; another partner sees none of it.
 */
describe('webhook control plane and live status on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;
  let receiver: Server;
  /** What the receiver answers; 200 after verifying. */
  let answer = 200;
  /** How long the receiver takes before it answers. */
  let delayMs = 0;
  const received: Received[] = [];
  const secret = 'control-partner-secret-0123';
  let hook: PartnerConfig & TestPartner;
  const other = PARTNERS.other;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hook-control-'));
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const verified = verifyWebhook(body, req.headers, {
          partnerId: 'control-partner',
          secret,
          nowMs: Date.now(),
        });
        if (!verified.ok) {
          res.writeHead(401).end();
          return;
        }
        if (answer !== 200) {
          res.writeHead(answer).end();
          return;
        }
        const event = verified.event as Json;
        setTimeout(() => {
          received.push({
            eventId: req.headers['x-service-event-id'] as string,
            event: event.event,
            attemptId: event.attemptId,
            body: body.toString('utf8'),
          });
          res.writeHead(200).end();
        }, delayMs);
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    hook = { ...PARTNERS.v2, partnerId: 'control-partner', secret, callbackUrl: url };
    t = await startTestApp({
      chains,
      partners: [hook, other],
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100', WEBHOOK_TICK_MS: '100' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    await new Promise((r) => receiver?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  const user = (i: number): Account =>
    privateKeyToAccount(sandbox.manifest.wallets.users[i].privateKey as Hex);
  const driver = (partner: TestPartner) => new SandboxDriver({ port: t.port, partner, sandbox });
  /** quote → prepare for user i: the attempt exists, no lifecycle event yet. */
  const prepare = async (i: number, partner: TestPartner = hook) =>
    (await driver(partner).prepare(user(i), [[1, 'USDC', String(2_000_000 + i)]], { providers: ['relay'] }))
      .attempt;
  /** The wallet runs the prepared actions and the partner reports them, signed: the attempt moves on alone. */
  const run = async (i: number, attempt: PreparedForWallet, partner: TestPartner = hook) => {
    const d = driver(partner);
    const chainResults = await d.execute(user(i), attempt);
    await d.submit(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await d.sign(user(i), attempt) },
    });
  };
  const receivedFor = (attemptId: string) => received.filter((r) => r.attemptId === attemptId);
  async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(check()).toBe(true);
  }
  const api = (
    method: 'GET' | 'POST',
    path: string,
    options: { partner?: TestPartner; body?: unknown; key?: string } = {},
  ) =>
    signedRequest({
      port: t.port,
      partner: options.partner ?? hook,
      method,
      path: `/api/external${path}`,
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.key === undefined ? {} : { idempotencyKey: options.key }),
    });
  /** Every event of the partner's list, following nextCursor. */
  async function listAll(partner: TestPartner = hook): Promise<{ events: Json[]; cursor: string }> {
    const events: Json[] = [];
    let res = await api('GET', '/webhooks/events', { partner });
    for (;;) {
      expect(res.status).toBe(200);
      events.push(...res.json.events);
      if (!res.json.hasMore) return { events, cursor: res.json.nextCursor };
      res = await api('GET', `/webhooks/events/after/${res.json.nextCursor}`, { partner });
    }
  }

  let first: string; // an attempt settled by the first test, with its three events delivered
  const t0 = new Date(Date.now() - 60_000).toISOString();

  it('streams the attempt live from before its first event, with the webhook ids and bodies; a reconnect with Last-Event-ID gets only the rest', async () => {
    const attempt = await prepare(0);
    first = attempt.attemptId;
    const whole = await openLiveStatus({ port: t.port, partner: hook, attemptId: first });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(whole.headers['x-service-api-version']).toBe('1');
    const dropped = await openLiveStatus({ port: t.port, partner: hook, attemptId: first });
    expect(whole.events).toEqual([]); // prepared: nothing to announce yet

    await run(0, attempt);

    // One client leaves after the first event and comes back with its id.
    const [firstEvent] = await dropped.waitFor(1);
    dropped.close();
    const events = await whole.waitFor(3);
    await whole.ended; // the server closes the stream once the terminal event was sent
    expect(events.map((e) => e.event)).toEqual(LIFECYCLE);
    const resumed = await openLiveStatus({
      port: t.port,
      partner: hook,
      attemptId: first,
      lastEventId: firstEvent.id,
    });
    await resumed.ended;
    expect(resumed.events).toEqual(events.slice(1));

    // The webhooks the receiver verified: the same ids, in the same order, and the same bytes.
    await waitFor(() => receivedFor(first).length >= 3);
    expect(receivedFor(first).map((r) => [r.eventId, r.event, r.body])).toEqual(
      events.map((e) => [e.id, e.event, e.data]),
    );
    expect(events.every((e) => JSON.parse(e.data).eventId === e.id)).toBe(true);

    // After the end: a new stream replays the history and closes; after the terminal event, nothing.
    const replay = await openLiveStatus({ port: t.port, partner: hook, attemptId: first });
    await replay.ended;
    expect(replay.events).toEqual(events);
    const past = await openLiveStatus({
      port: t.port,
      partner: hook,
      attemptId: first,
      lastEventId: events[2].id,
    });
    await past.ended;
    expect([past.status, past.events]).toEqual([200, []]);
  }, 120_000);

  it('follows many attempts in flight at once, each stream only its own attempt; another partner gets 404', async () => {
    const users = [1, 2, 3, 4];
    const attempts = await Promise.all(users.map((i) => prepare(i)));
    const streams = await Promise.all(
      attempts.map((a) => openLiveStatus({ port: t.port, partner: hook, attemptId: a.attemptId })),
    );
    const foreign = await openLiveStatus({ port: t.port, partner: other, attemptId: attempts[0].attemptId });
    await foreign.ended;
    expect([foreign.status, JSON.parse(foreign.text()).code]).toEqual([404, 'attempt_not_found']);

    await Promise.all(users.map((i, n) => run(i, attempts[n])));
    await Promise.all(streams.map((s) => s.ended));
    for (const [n, stream] of streams.entries()) {
      const { attemptId } = attempts[n];
      expect(stream.events.map((e) => e.event)).toEqual(LIFECYCLE);
      expect(stream.events.every((e) => JSON.parse(e.data).attemptId === attemptId)).toBe(true);
      await waitFor(() => receivedFor(attemptId).length >= 3);
      expect(receivedFor(attemptId).map((r) => [r.eventId, r.body])).toEqual(
        stream.events.map((e) => [e.id, e.data]),
      );
    }
    expect(t.app.get(AttemptEventStreams).openFor(hook.partnerId)).toBe(0);
  }, 180_000);

  it("lists the partner's events oldest first with every delivery try; a cursor continues; another partner sees none", async () => {
    const { events, cursor } = await listAll();
    const delivered = received.map((r) => r.eventId);
    expect(events.map((e) => e.eventId).sort()).toEqual([...new Set(delivered)].sort());
    const ofFirst = events.filter((e) => e.attemptId === first);
    expect(ofFirst.map((e) => e.event)).toEqual(LIFECYCLE);
    for (const event of events) {
      expect(event).toMatchObject({ status: 'delivered', nextAttemptAt: null });
      expect(event.deliveries).toEqual([
        { at: expect.any(String), statusCode: 200, latencyMs: expect.any(Number), outcome: 'delivered' },
      ]);
      expect(Date.parse(event.deliveries[0].at)).toBeGreaterThanOrEqual(Date.parse(event.occurredAt));
    }
    const after = await api('GET', `/webhooks/events/after/${cursor}`);
    expect([after.status, after.json.events, after.json.hasMore]).toEqual([200, [], false]);
    const theirs = await listAll(other);
    expect(theirs.events.filter((e) => e.attemptId === first)).toEqual([]);
  }, 60_000);

  it('redelivers one event: the same id and bytes again, signed afresh; a replayed key sends nothing more', async () => {
    const settled = receivedFor(first).find((r) => r.event === 'settled')!;
    const key = 'redeliver-settled-1';
    const res = await api('POST', `/webhooks/redeliver/${settled.eventId}`, { key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      apiVersion: '1',
      eventId: settled.eventId,
      attemptId: first,
      action: 'redelivery_queued',
      status: expect.stringMatching(/^(queued|delivered)$/),
    });
    await waitFor(() => receivedFor(first).length === 4);
    expect(receivedFor(first)[3]).toEqual(settled);

    const replay = await api('POST', `/webhooks/redeliver/${settled.eventId}`, { key });
    expect(replay.status).toBe(200);
    expect({ ...replay.json, status: 'x' }).toEqual({ ...res.json, status: 'x' });
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedFor(first)).toHaveLength(4);
    const listed = (await listAll()).events.find((e) => e.eventId === settled.eventId);
    expect(listed.deliveries.map((d: Json) => d.outcome)).toEqual(['delivered', 'delivered']);

    // Another partner's event is not found for this one, and bad requests change nothing.
    const foreign = await api('POST', `/webhooks/redeliver/${settled.eventId}`, { partner: other });
    expect([foreign.status, foreign.json.code]).toEqual([404, 'webhook_event_not_found']);
    const unknown = await api('POST', '/webhooks/redeliver/no-such-event');
    expect([unknown.status, unknown.json.code]).toEqual([404, 'webhook_event_not_found']);
    const extra = await api('POST', `/webhooks/redeliver/${settled.eventId}`, { body: { now: true } });
    expect([extra.status, extra.json.code]).toEqual([400, 'unknown_field']);
    await new Promise((r) => setTimeout(r, 300));
    expect(receivedFor(first)).toHaveLength(4);
  }, 60_000);

  it('opens a single new pass for many redeliveries of one event at once', async () => {
    const submitted = receivedFor(first).find((r) => r.event === 'wallet_submitted')!;
    const before = receivedFor(first).length;
    delayMs = 1_000; // the new pass's try stays in flight while the other requests arrive
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api('POST', `/webhooks/redeliver/${submitted.eventId}`)),
    );
    const outcomes = answers.map((r) => (r.status === 200 ? r.json.action : `${r.status} ${r.json.code}`));
    expect(outcomes.filter((o) => o === 'redelivery_queued')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '409 webhook_delivery_pending')).toHaveLength(7);
    await waitFor(() => receivedFor(first).length === before + 1);
    delayMs = 0;
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedFor(first).slice(before)).toEqual([submitted]);
  }, 60_000);

  it('tries an event waiting for its next retry now; one queued behind it is pending (409)', async () => {
    answer = 503;
    const attempt = await prepare(5);
    await run(5, attempt);
    const listed = async () => (await listAll()).events.filter((e) => e.attemptId === attempt.attemptId);
    let waiting: Json[] = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      waiting = await listed();
      if (waiting.length === 3 && waiting[0].status === 'retrying') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(waiting.map((e) => [e.event, e.status])).toEqual([
      ['wallet_submitted', 'retrying'],
      ['provider_pending', 'queued'],
      ['settled', 'queued'],
    ]);
    // One failed try, or two when the second (5 s later) came before the three events were all listed: a loaded
    // machine settles the attempt slower than that. Either way the event waits for its next retry.
    expect(waiting[0].deliveries.length).toBeGreaterThanOrEqual(1);
    for (const delivery of waiting[0].deliveries)
      expect(delivery).toEqual({
        at: expect.any(String),
        statusCode: 503,
        latencyMs: expect.any(Number),
        outcome: 'failed',
      });
    const behind = await api('POST', `/webhooks/redeliver/${waiting[1].eventId}`);
    expect([behind.status, behind.json.code]).toEqual([409, 'webhook_delivery_pending']);

    answer = 200;
    const res = await api('POST', `/webhooks/redeliver/${waiting[0].eventId}`);
    expect([res.status, res.json.action]).toEqual([200, 'retry_now']);
    await waitFor(() => receivedFor(attempt.attemptId).length === 3, 20_000);
    // Delivered before its scheduled retry, in order.
    expect(receivedFor(attempt.attemptId).map((r) => r.event)).toEqual(LIFECYCLE);
    const after = await listed();
    const failedTries = waiting[0].deliveries.length;
    expect(Date.parse(after[0].deliveries[failedTries].at)).toBeLessThan(
      Date.parse(waiting[0].nextAttemptAt),
    );
    expect(after[0].deliveries.map((d: Json) => [d.statusCode, d.outcome])).toEqual([
      ...Array.from({ length: failedTries }, () => [503, 'failed']),
      [200, 'delivered'],
    ]);
  }, 90_000);

  it('recovers a time range: every ended event again, per attempt in the original order, same ids and bytes', async () => {
    const before = received.length;
    const originals = new Map(received.map((r) => [r.eventId, r]));
    const range = { from: t0, to: new Date(Date.now() + 1_000).toISOString() };
    const key = 'recover-everything-1';
    const res = await api('POST', '/webhooks/recover', { body: range, key });
    expect(res.status).toBe(200);
    const recovered: Json[] = res.json.recovered;
    const attempts = [...new Set(recovered.map((r) => r.attemptId))];
    expect(recovered).toHaveLength(3 * attempts.length);
    expect(attempts).toHaveLength(6);
    for (const attemptId of attempts)
      expect(recovered.filter((r) => r.attemptId === attemptId).map((r) => r.event)).toEqual(LIFECYCLE);

    await waitFor(() => received.length === before + recovered.length);
    const again = received.slice(before);
    for (const attemptId of attempts) {
      const mine = again.filter((r) => r.attemptId === attemptId);
      expect(mine.map((r) => r.event)).toEqual(LIFECYCLE);
      for (const r of mine) expect(r).toEqual(originals.get(r.eventId));
    }

    const replay = await api('POST', '/webhooks/recover', { body: range, key });
    expect([replay.status, replay.json]).toEqual([200, res.json]);
    const elsewhere = await api('POST', '/webhooks/recover', { body: range, partner: other });
    expect(elsewhere.json.recovered.filter((r: Json) => attempts.includes(r.attemptId))).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(received.length).toBe(before + recovered.length);
  }, 90_000);

  it('answers bad input with a stable 400 and changes nothing; bounds the open streams per partner (429)', async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    for (const [body, field] of [
      [{ from: at(now), to: at(now - 1) }, 'to'],
      [{ from: at(now - 8 * 86_400_000), to: at(now) }, 'to'],
      [{ from: 'yesterday', to: at(now) }, 'from'],
    ] as const) {
      const res = await api('POST', '/webhooks/recover', { body });
      expect([res.status, res.json.code, res.json.details[0].field]).toEqual([
        400,
        'invalid_recover_range',
        field,
      ]);
    }
    const extra = await api('POST', '/webhooks/recover', {
      body: { from: at(now - 1000), to: at(now), x: 1 },
    });
    expect([extra.status, extra.json.code]).toEqual([400, 'unknown_field']);
    const forged = await api('POST', '/webhooks/recover', {
      body: { from: at(now - 1000), to: at(now), continuation: 'bm90LWEtY29udGludWF0aW9u' },
    });
    expect([forged.status, forged.json.code, forged.json.details[0].field]).toEqual([
      400,
      'invalid_recover_continuation',
      'continuation',
    ]);
    const cursor = await api('GET', '/webhooks/events/after/not-a-cursor');
    expect([cursor.status, cursor.json.code]).toEqual([400, 'invalid_webhook_cursor']);
    const lastId = await openLiveStatus({
      port: t.port,
      partner: hook,
      attemptId: first,
      lastEventId: 'nope',
    });
    await lastId.ended;
    expect([lastId.status, JSON.parse(lastId.text()).code]).toEqual([400, 'invalid_last_event_id']);
    const missing = await openLiveStatus({ port: t.port, partner: hook, attemptId: 'at_missing' });
    await missing.ended;
    expect([missing.status, JSON.parse(missing.text()).code]).toEqual([404, 'attempt_not_found']);

    // A prepared attempt never runs: its streams stay open. 20 at once, then 429 until one closes.
    const idle = await prepare(0);
    const open = await Promise.all(
      Array.from({ length: 20 }, () =>
        openLiveStatus({ port: t.port, partner: hook, attemptId: idle.attemptId }),
      ),
    );
    expect(open.map((s) => s.status)).toEqual(open.map(() => 200));
    const refused = await openLiveStatus({ port: t.port, partner: hook, attemptId: idle.attemptId });
    await refused.ended;
    expect([refused.status, JSON.parse(refused.text()).code, refused.headers['retry-after']]).toEqual([
      429,
      'live_stream_limit_reached',
      '5',
    ]);
    // Another partner is not held back by this one's streams.
    const theirs = await prepare(1, other);
    const otherStream = await openLiveStatus({ port: t.port, partner: other, attemptId: theirs.attemptId });
    expect(otherStream.status).toBe(200);
    otherStream.close();
    open[0].close();
    await waitFor(() => t.app.get(AttemptEventStreams).openFor(hook.partnerId) === 19, 5_000);
    const admitted = await openLiveStatus({ port: t.port, partner: hook, attemptId: idle.attemptId });
    expect(admitted.status).toBe(200);
    for (const stream of [...open, admitted]) stream.close();
    await waitFor(() => t.app.get(AttemptEventStreams).openFor(hook.partnerId) === 0, 5_000);
  }, 60_000);
  it('caps the redeliveries of one event per hour: 429 webhook_redelivery_rate_limited with Retry-After', async () => {
    const settled = receivedFor(first).find((r) => r.event === 'settled')!;
    const cap = WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour;
    // Earlier cases already sent it again (a redelivery, a recovery): send it until the cap refuses.
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof api>> | undefined;
    while (refused === undefined && accepted <= cap) {
      const before = receivedFor(first).length;
      const res = await api('POST', `/webhooks/redeliver/${settled.eventId}`);
      if (res.status === 200) {
        accepted++;
        await waitFor(() => receivedFor(first).length === before + 1);
        // Its new pass recorded as delivered, so the next redelivery is not refused as pending.
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          const listed = (await listAll()).events.find((e) => e.eventId === settled.eventId);
          if (listed?.status === 'delivered') break;
          await new Promise((r) => setTimeout(r, 50));
        }
      } else refused = res;
    }
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(cap);
    expect([refused?.status, refused?.json.code]).toEqual([429, 'webhook_redelivery_rate_limited']);
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3_000);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    const listed = (await listAll()).events.find((e) => e.eventId === settled.eventId);
    expect(listed.deliveryCount).toBe(listed.deliveries.length + listed.deliveriesOmitted);
    // Another event of the same attempt is not held back.
    const submitted = receivedFor(first).find((r) => r.event === 'provider_pending')!;
    expect((await api('POST', `/webhooks/redeliver/${submitted.eventId}`)).status).toBe(200);
  }, 90_000);
});
