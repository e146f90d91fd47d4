import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { type PartnerConfig } from '@svc/platform';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  type CountingWebhookReceiver,
  duplicatedAttemptFacts,
  runSandboxFlow,
  type SandboxProcess,
  signedRequest,
  startCountingWebhookReceiver,
  startSandboxProcess,
} from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * Two instances of the service on one SQLite file, as two replicas of the tracker and the dispatcher would be: the
 * shard leases split the attempts between them, each attempt is tracked and its webhooks delivered by one instance
 * at a time, and when one stops the other takes its shards over. Nothing is recorded or delivered twice.
 */
describe('two instances sharing one store', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let dir: string;
  let receiver: CountingWebhookReceiver;
  let a: TestApp;
  let b: TestApp;
  let partner: PartnerConfig & { authVersion: 2 };

  const start = () =>
    startTestApp({
      chains,
      partners: [partner],
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100', WEBHOOK_TICK_MS: '100', WORK_SHARDS: '8', LEASE_TTL_SECONDS: '3' },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scale-out-'));
    sandbox = await startSandboxProcess({ SANDBOX_FILL_DELAY_MS: '1000' });
    chains = new ChainRegistry(sandbox.manifest.chains);
    const secret = 'scale-out-partner-secret-0123';
    receiver = await startCountingWebhookReceiver({ partnerId: 'scale-partner', secret });
    const url = receiver.url;
    partner = { ...PARTNERS.v2, partnerId: 'scale-partner', secret, callbackUrl: url, maxFeeBps: 0 };
    a = await start();
    b = await start();
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await chains?.close();
    await sandbox?.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const status = async (attemptId: string) =>
    (
      await signedRequest({
        port: a.port,
        partner,
        method: 'GET',
        path: `/api/external/attempts/${attemptId}/status`,
      })
    ).json?.status as string;
  const eventsOf = (attemptId: string) =>
    receiver.received.filter((e) => e.attemptId === attemptId).map((e) => e.event);
  async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** The holder of each shard lease of a group (null when free). */
  const holders = async (group: string) =>
    Promise.all(
      Array.from({ length: 8 }, async (_, shard) => {
        const last = (
          await a.store.readStream(`lease-${group}-${shard}`, { direction: 'backwards', maxCount: 1 })
        )[0];
        return last && last.type !== 'LeaseReleased' ? String(last.data['owner']) : null;
      }),
    );

  it('splits the shards between the two instances, and every attempt settles once with its webhooks in order', async () => {
    // Every shard held, by two distinct instances (a free shard reads as null, so {one owner, null} is not a split).
    const splitBetweenTwo = async (group: string) => {
      const owners = await holders(group);
      return owners.every((h) => h !== null) && new Set(owners).size === 2;
    };
    await until('both trackers hold shards', () => splitBetweenTwo('settlement-tracker'));
    await until('both dispatchers hold shards', () => splitBetweenTwo('webhook-dispatcher'));

    const attempts = await Promise.all(
      [0, 1, 2, 3].map(
        async (userIndex) => (await runSandboxFlow({ port: a.port, partner, sandbox, userIndex })).attemptId,
      ),
    );
    for (const attemptId of attempts) {
      await until(`${attemptId} settled`, async () => (await status(attemptId)) === 'settled');
      await until(`${attemptId} webhooks`, () => eventsOf(attemptId).length >= 3);
      expect(eventsOf(attemptId)).toEqual(['wallet_submitted', 'provider_pending', 'settled']);
      expect(await duplicatedAttemptFacts(a.store, attemptId)).toEqual([]);
    }
    expect(receiver.duplicates()).toBe(0);
  }, 120_000);

  it('hands every shard to the remaining instance when one stops, and its attempts still settle', async () => {
    const { attemptId } = await runSandboxFlow({ port: a.port, partner, sandbox, userIndex: 4 });
    await b.close(); // graceful: its leases are released, not left to expire
    await until('one instance holds every tracker shard', async () => {
      const h = await holders('settlement-tracker');
      return h.every((owner) => owner !== null) && new Set(h).size === 1;
    });
    await until('settled', async () => (await status(attemptId)) === 'settled');
    await until('webhooks', () => eventsOf(attemptId).length >= 3);
    expect(eventsOf(attemptId)).toEqual(['wallet_submitted', 'provider_pending', 'settled']);
    expect(await duplicatedAttemptFacts(a.store, attemptId)).toEqual([]);
    expect(receiver.duplicates()).toBe(0);
    b = await start(); // afterAll closes it
  }, 120_000);
});
