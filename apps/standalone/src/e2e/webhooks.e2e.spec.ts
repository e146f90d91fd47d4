import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { createWebhookReceiver, MemoryProcessedEventStore, type WebhookEvent } from '@svc/partner-client';
import { type PartnerConfig } from '@svc/platform';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import { rawRequest, runSandboxFlow, startSandboxProcess, type SandboxProcess } from '@svc/testing';
import { WebhookDispatcher } from '@svc/webhooks';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * Signed lifecycle webhooks end to end: the sandbox flow to settled, the outbox relay, the dispatcher, and a
 * partner receiver on loopback that verifies every delivery (`verifyWebhook`) and deduplicates by eventId.
 */
describe('webhooks on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;
  let receiver: Server;
  let receiverUp = true;
  const received: WebhookEvent[] = [];
  let time = Date.now();
  let manual = false;
  const now = () => (manual ? time : Date.now());
  let partner: PartnerConfig & { authVersion: 2 };

  const start = () =>
    startTestApp({
      clock: { now },
      chains,
      partners: [partner],
      store: SqliteEventStore.open({
        file: join(dir, 'events.sqlite'),
        clock: () => new Date(now()),
        pollIntervalMs: 20,
      }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100', WEBHOOK_TICK_MS: '100' },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hooks-'));
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    const secret = 'webhook-partner-secret-0123';
    const handler = createWebhookReceiver({
      partnerId: 'hook-partner',
      secret,
      store: new MemoryProcessedEventStore(),
      nowMs: now,
      onEvent: (event) => {
        received.push(event);
        return Promise.resolve();
      },
    });
    receiver = createServer((req, res) => {
      if (!receiverUp) {
        req.resume();
        res.writeHead(503).end();
        return;
      }
      handler(req, res);
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    partner = { ...PARTNERS.v2, partnerId: 'hook-partner', secret, callbackUrl: url };
    t = await start();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    await new Promise((r) => receiver.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  /** quote → prepare → execute → submitted with the signature, for user i: returns the attemptId. */
  const settleOne = async (i: number): Promise<string> =>
    (await runSandboxFlow({ port: t.port, partner, sandbox, userIndex: i, now })).attemptId;

  async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }
  const eventsOf = (attemptId: string) => received.filter((e) => e.attemptId === attemptId);

  it('delivers wallet_submitted, provider_pending, settled in order, each verified, with the snapshot as of the event', async () => {
    const attemptId = await settleOne(0);
    await waitFor(() => eventsOf(attemptId).length >= 3);
    const events = eventsOf(attemptId);
    expect(events.map((e) => e.event)).toEqual(['wallet_submitted', 'provider_pending', 'settled']);
    expect(events.map((e) => e.status)).toEqual(['wallet_submitted', 'provider_pending', 'settled']);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
    expect(events[2].settledOutputs).toHaveLength(1);
    expect(events[0].settledOutputs).toEqual([]);
    const metrics = await rawRequest({ port: t.opsPort, method: 'GET', path: '/metrics' });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/intent_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(metrics.text).toContain('intent_webhook_delivery_lag_seconds_bucket');
    expect(metrics.text).toContain('intent_webhook_queue_depth');
  }, 60_000);

  it('a receiver down for an hour receives every event after it comes back, in order, once each', async () => {
    receiverUp = false;
    const attemptId = await settleOne(1);
    // Every lifecycle step happens while the receiver refuses: the first event is tried and fails, the rest wait.
    await waitFor(() => false, 2_000);
    expect(eventsOf(attemptId)).toEqual([]);
    manual = true;
    time = Date.now();
    const dispatcher = t.app.get(WebhookDispatcher);
    for (const minutes of [1, 10, 40, 60]) {
      time += minutes * 60_000;
      await dispatcher.tick();
    }
    expect(eventsOf(attemptId)).toEqual([]);
    receiverUp = true;
    for (let step = 0; step < 20 && eventsOf(attemptId).length < 3; step++) {
      time += 30 * 60_000;
      await dispatcher.tick();
      await dispatcher.tick();
    }
    expect(eventsOf(attemptId).map((e) => e.event)).toEqual([
      'wallet_submitted',
      'provider_pending',
      'settled',
    ]);
    manual = false;
  }, 90_000);

  it('a dispatcher and relay restart mid-delivery loses nothing', async () => {
    receiverUp = false;
    const attemptId = await settleOne(2);
    await t.close();
    receiverUp = true;
    t = await start();
    await waitFor(() => eventsOf(attemptId).length >= 3, 30_000);
    expect(eventsOf(attemptId).map((e) => e.event)).toEqual([
      'wallet_submitted',
      'provider_pending',
      'settled',
    ]);
  }, 90_000);
});
