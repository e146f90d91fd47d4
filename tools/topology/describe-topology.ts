import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore } from '@svc/event-store';
import {
  type CountingWebhookReceiver,
  duplicatedAttemptFacts,
  rawRequest,
  runSandboxFlow,
  type SandboxProcess,
  signedRequest,
  startCountingWebhookReceiver,
  startSandboxProcess,
  startTopology,
  type Topology,
} from '@svc/testing';

/** The bus and the store the five apps share: the Kafka mock and SQLite here, real Kafka and EventStoreDB in containers. */
export interface TopologyInfra {
  /** BUS, KAFKA_BROKERS, EVENT_STORE and DATA_DIR or EVENTSTOREDB_URL. */
  env: Record<string, string>;
  /** The same store, opened by the test to inspect what the apps wrote. */
  openStore(): EventStore;
  stop(): Promise<void>;
}

const LIFECYCLE = ['wallet_submitted', 'provider_pending', 'settled'];

/**
 * The distributed composition end to end: the five apps as separate processes over the given bus and store, the
 * provider sandbox, and a partner's webhook receiver on loopback. One partner drives the whole flow through the
 * gateway's public API; the apps are killed and restarted under it.
 */
export function describeTopology(
  title: string,
  startInfra: () => Promise<TopologyInfra>,
  options: {
    skipReason?: string;
    /** Why consumer groups with several members cannot be tested on this broker (the scale-out test is skipped). */
    noMultiMemberGroups?: string;
  } = {},
): void {
  if (options.skipReason) {
    process.stdout.write(`${title}: skipped, ${options.skipReason}\n`);
    // Skipped on purpose: the broker or container runtime is missing here (the reason is printed above).
    describe.skip(title, () => it('runs the five apps', () => undefined));
    return;
  }
  describe(title, () => {
    let infra: TopologyInfra | undefined;
    let sandbox: SandboxProcess | undefined;
    let topology: Topology | undefined;
    let store: EventStore | undefined;
    let receiver: CountingWebhookReceiver | undefined;
    let dir = '';
    const secret = 'topology-partner-secret-0123456789';
    const partner = { partnerId: 'topology-partner', secret, authVersion: 2 as const };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'topology-'));
      receiver = await startCountingWebhookReceiver(partner);
      const partnersFile = join(dir, 'partners.json');
      writeFileSync(
        partnersFile,
        JSON.stringify({
          partners: [
            {
              ...partner,
              callbackUrl: receiver.url,
              allowedProviders: ['relay'],
              maxFeeBps: 0,
              rateLimitPerMinute: 10_000,
              enabled: true,
            },
          ],
        }),
      );
      // The fill takes 1.5 s, so "mid-flow" below is really before settlement.
      [sandbox, infra] = await Promise.all([
        startSandboxProcess({ SANDBOX_FILL_DELAY_MS: '1500' }),
        startInfra(),
      ]);
      store = infra.openStore();
      topology = await startTopology({
        env: {
          ...process.env,
          ...sandbox.manifest.env,
          ...infra.env,
          PARTNERS_FILE: partnersFile,
          LOG_LEVEL: 'info',
          SETTLEMENT_TICK_MS: '200',
          WEBHOOK_TICK_MS: '200',
          WORK_SHARDS: '8',
          LEASE_TTL_SECONDS: '3',
          KAFKA_SESSION_TIMEOUT_MS: '6000',
          KAFKA_MAX_WAIT_MS: '20',
          BUS_REQUEST_TIMEOUT_MS: '8000',
          IDEMPOTENCY_LEASE_SECONDS: '1',
        },
        echo: process.env['TOPOLOGY_VERBOSE']
          ? (app, line) => process.stdout.write(`[${app}] ${line}\n`)
          : undefined,
      });
    }, 240_000);

    afterAll(async () => {
      await topology?.stopAll();
      await store?.close();
      await Promise.all([sandbox?.stop(), infra?.stop()]);
      await receiver?.close();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    const status = async (attemptId: string) => {
      const res = await signedRequest({
        port: topology!.gatewayPort(),
        partner,
        method: 'GET',
        path: `/api/external/attempts/${attemptId}/status`,
      });
      return res.status === 200 ? (res.json as { status: string }).status : `http ${res.status}`;
    };
    /** The warnings and errors of every app, and each one's last lines: what a failed wait needs to be understood. */
    // The background workers first (CI shows only the start of a long failure), routine request lines left out.
    const ORDER = ['webhook-dispatcher', 'settlement-tracker', 'gateway', 'execution', 'quoting'];
    const recentLogs = () =>
      [...topology!.apps]
        .sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name))
        .map((app) => {
          const notable = app.lines.filter((l) => /"level":(40|50|60)/.test(l) && !/partitioner/.test(l));
          const recent = app.lines.filter((l) => !/"msg":"(http request|bus message handled)"/.test(l));
          return [`--- ${app.instanceId}`, ...notable.slice(-10), '...', ...recent.slice(-6)]
            .map((l) => l.replace(/"(level|time|pid|hostname|name)":[^,]*,/g, '').slice(0, 300))
            .join('\n');
        })
        .join('\n');
    const eventsOf = (attemptId: string) =>
      receiver!.received.filter((e) => e.attemptId === attemptId).map((e) => e.event);
    async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${recentLogs()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const flow = (userIndex: number) =>
      runSandboxFlow({ port: topology!.gatewayPort(), partner, sandbox: sandbox!, userIndex });
    const recorded = async (attemptId: string, type: string) =>
      (await store!.readStream(`attempt-${attemptId}`)).filter((e) => e.type === type).length;
    const metrics = async (app: Parameters<Topology['get']>[0]) =>
      (await rawRequest({ port: topology!.get(app).port, method: 'GET', path: '/metrics' })).text;

    it('runs the sandbox flow through the gateway to settled, with every webhook signed, in order, once', async () => {
      const { attemptId } = await flow(0);
      await until('settled', async () => (await status(attemptId)) === 'settled');
      await until('three webhooks', () => eventsOf(attemptId).length >= 3);
      expect(eventsOf(attemptId)).toEqual(LIFECYCLE);
      expect(receiver!.duplicates()).toBe(0);
      expect(await recorded(attemptId, 'AttemptSettled')).toBe(1);
      expect(await duplicatedAttemptFacts(store!, attemptId)).toEqual([]);

      // Each app exposes its own figures.
      expect(await metrics('gateway')).toMatch(
        /http_request_duration_seconds_count\{method="POST",route="\/api\/external\/intents\/quote",status="200"\} [1-9]/,
      );
      expect(await metrics('quoting')).toMatch(
        /provider_call_duration_seconds_count\{provider="relay",operation="quote",outcome="ok"\} [1-9]/,
      );
      // The tracker's census sees the settlement on its next pass.
      await until('the census counts it', async () =>
        /attempts\{status="settled"\} [1-9]/.test(await metrics('settlement-tracker')),
      );
      const dispatcher = await metrics('webhook-dispatcher');
      expect(dispatcher).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
      expect(dispatcher).toMatch(/outbox_lag_seconds_count [1-9]/);
      for (const app of topology!.apps) {
        const ready = await rawRequest({ port: app.port, method: 'GET', path: '/readyz' });
        expect({ app: app.instanceId, body: ready.json as unknown }).toMatchObject({
          body: { status: 'ready', checks: { eventStore: 'ok', bus: 'ok' } },
        });
      }
    }, 120_000);

    it('loses nothing when the tracker and the dispatcher are killed mid-flow and started again', async () => {
      receiver!.setUp(false);
      const { attemptId } = await flow(1);
      const tracker = topology!.get('settlement-tracker');
      const dispatcher = topology!.get('webhook-dispatcher');
      await Promise.all([topology!.kill(tracker), topology!.kill(dispatcher)]); // SIGKILL: no handover at all
      expect(await recorded(attemptId, 'AttemptSettled')).toBe(0);
      receiver!.setUp(true);
      await Promise.all([topology!.start('settlement-tracker'), topology!.start('webhook-dispatcher')]);
      await until('settled after the restart', async () => (await status(attemptId)) === 'settled');
      await until('three webhooks after the restart', () => eventsOf(attemptId).length >= 3);
      expect(eventsOf(attemptId)).toEqual(LIFECYCLE);
      expect(receiver!.duplicates()).toBe(0);
      expect(await duplicatedAttemptFacts(store!, attemptId)).toEqual([]);
      expect(await recorded(attemptId, 'AttemptSettled')).toBe(1);
    }, 180_000);

    // Skipped on brokers that cannot hold a consumer group of several members (the reason is printed below).
    const scaleOut = options.noMultiMemberGroups ? it.skip : it;
    if (options.noMultiMemberGroups) {
      process.stdout.write(`${title}: scale-out test skipped, ${options.noMultiMemberGroups}\n`);
    }
    scaleOut(
      'shares the work between two trackers and two dispatchers, and one takes over when the other dies',
      async () => {
        await Promise.all([topology!.start('settlement-tracker'), topology!.start('webhook-dispatcher')]);
        const attempts = await Promise.all([2, 3, 4].map(async (user) => (await flow(user)).attemptId));
        await topology!.kill(topology!.get('settlement-tracker', 0));
        await topology!.kill(topology!.get('webhook-dispatcher', 1));
        for (const attemptId of attempts) {
          await until(`${attemptId} settled`, async () => (await status(attemptId)) === 'settled');
          await until(`${attemptId} webhooks`, () => eventsOf(attemptId).length >= 3);
          expect(eventsOf(attemptId)).toEqual(LIFECYCLE);
          expect(await duplicatedAttemptFacts(store!, attemptId)).toEqual([]);
        }
        expect(receiver!.duplicates()).toBe(0);
      },
      180_000,
    );

    it('resumes relaying and delivering when the dispatcher stalls past its leases', async () => {
      const { attemptId } = await flow(5);
      // Frozen longer than the lease TTL (3 s): on waking, its leases have lapsed and its timers are late.
      await topology!.pause(topology!.get('webhook-dispatcher'), 4_000);
      await until('settled', async () => (await status(attemptId)) === 'settled');
      await until('three webhooks after the stall', () => eventsOf(attemptId).length >= 3, 30_000);
      expect(eventsOf(attemptId)).toEqual(LIFECYCLE);
      expect(receiver!.duplicates()).toBe(0);
      expect(await duplicatedAttemptFacts(store!, attemptId)).toEqual([]);
    }, 120_000);

    it('answers 503 dependency_unavailable with Retry-After while quoting is down, and the retry runs once', async () => {
      await topology!.kill(topology!.get('quoting'));
      const body = {
        walletAddress: sandbox!.manifest.wallets.users[5].address,
        recipient: sandbox!.manifest.wallets.users[5].address,
        sources: [
          { chainId: 1, address: sandbox!.token(1, 'USDC'), amount: '1000000', symbol: 'USDC', decimals: 6 },
        ],
        target: {
          chainId: 8453,
          address: sandbox!.token(8453, 'USDC'),
          targetToken: { address: sandbox!.token(8453, 'USDC'), symbol: 'USDC', decimals: 6 },
        },
        allowedProviders: ['relay'],
      };
      const quote = () =>
        signedRequest({
          port: topology!.gatewayPort(),
          partner,
          method: 'POST',
          path: '/api/external/intents/quote',
          body,
          idempotencyKey: 'quote-while-quoting-is-down',
        });
      const refused = await quote();
      expect(refused.status).toBe(503);
      expect(refused.json).toMatchObject({ code: 'dependency_unavailable' });
      expect(String(refused.headers['retry-after'])).toMatch(/^[1-9][0-9]*$/);

      await topology!.start('quoting');
      // The request left on the topic is served when quoting is back; the retry with the key finds its session.
      let answered = await quote();
      for (let i = 0; i < 20 && answered.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 500));
        answered = await quote();
      }
      expect(answered.status).toBe(200);
      const sessionId = (answered.json as { intentSessionId: string }).intentSessionId;
      const again = await quote();
      expect((again.json as { intentSessionId: string }).intentSessionId).toBe(sessionId);
      const session = await store!.readStream(`intent-${sessionId}`);
      expect(session.filter((e) => e.type === 'IntentQuoted')).toHaveLength(1);
    }, 120_000);
  });
}
