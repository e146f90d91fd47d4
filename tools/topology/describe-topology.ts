import { duplicatedAttemptFacts, rawRequest, signedRequest } from '@svc/testing';
import { quoteBody } from './retrying-partner';
import { LIFECYCLE, skippedTopology, type TopologyInfra, useTopologyHarness } from './topology-harness';

export type { TopologyInfra } from './topology-harness';

/**
 * The distributed composition end to end: the five apps as separate processes over the given bus and store, the
 * provider sandbox, and a partner's webhook receiver on loopback. One partner drives the whole flow through the
 * gateway's public API; the apps are killed and restarted under it. Several replicas of each: describeReplicas.
 */
export function describeTopology(
  title: string,
  startInfra: () => Promise<TopologyInfra>,
  options: { skipReason?: string } = {},
): void {
  if (skippedTopology(title, 'runs the five apps', options.skipReason)) return;
  describe(title, () => {
    const h = useTopologyHarness(startInfra);

    h.test(
      'runs the sandbox flow through the gateway to settled, with every webhook signed, in order, once',
      async () => {
        const { attemptId } = await h.flow(0);
        await h.until('settled', async () => (await h.status(attemptId)) === 'settled');
        await h.until('three webhooks', () => h.eventsOf(attemptId).length >= 3);
        expect(h.eventsOf(attemptId)).toEqual(LIFECYCLE);
        expect(h.receiver.duplicates()).toBe(0);
        expect(await h.recorded(attemptId, 'AttemptSettled')).toBe(1);
        expect(await duplicatedAttemptFacts(h.store, attemptId)).toEqual([]);

        // Each app exposes its own figures.
        expect(await h.metrics('gateway')).toMatch(
          /intent_http_request_duration_seconds_count\{method="POST",route="\/api\/external\/intents\/quote",status="200"\} [1-9]/,
        );
        expect(await h.metrics('quoting')).toMatch(
          /intent_provider_call_duration_seconds_count\{provider="relay",operation="quote",outcome="ok"\} [1-9]/,
        );
        // The tracker's census sees the settlement on its next pass.
        await h.until('the census counts it', async () =>
          /intent_attempts\{status="settled"\} [1-9]/.test(await h.metrics('settlement-tracker')),
        );
        const dispatcher = await h.metrics('webhook-dispatcher');
        expect(dispatcher).toMatch(/intent_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
        expect(dispatcher).toMatch(/intent_outbox_lag_seconds_count [1-9]/);
        // And the Node process's own: served by the ops listener (gateway) and by the app's port (the others).
        for (const app of [
          'gateway',
          'quoting',
          'execution',
          'settlement-tracker',
          'webhook-dispatcher',
        ] as const)
          expect(await h.metrics(app)).toMatch(/^intent_process_resident_memory_bytes [1-9]/m);
        for (const app of h.topology.apps) {
          const ready = await rawRequest({ port: app.opsPort, method: 'GET', path: '/readyz' });
          expect({ app: app.instanceId, body: ready.json as unknown }).toMatchObject({
            body: { status: 'ready', checks: { eventStore: 'ok', bus: 'ok' } },
          });
        }
      },
      120_000,
    );

    h.test(
      'loses nothing when the tracker and the dispatcher are killed mid-flow and started again',
      async () => {
        h.receiver.setUp(false);
        const { attemptId } = await h.flow(1);
        const tracker = h.topology.get('settlement-tracker');
        const dispatcher = h.topology.get('webhook-dispatcher');
        await Promise.all([h.topology.kill(tracker), h.topology.kill(dispatcher)]); // SIGKILL: no handover at all
        expect(await h.recorded(attemptId, 'AttemptSettled')).toBe(0);
        h.receiver.setUp(true);
        await Promise.all([h.topology.start('settlement-tracker'), h.topology.start('webhook-dispatcher')]);
        await h.until('settled after the restart', async () => (await h.status(attemptId)) === 'settled');
        await h.until('three webhooks after the restart', () => h.eventsOf(attemptId).length >= 3);
        expect(h.eventsOf(attemptId)).toEqual(LIFECYCLE);
        expect(h.receiver.duplicates()).toBe(0);
        expect(await duplicatedAttemptFacts(h.store, attemptId)).toEqual([]);
        expect(await h.recorded(attemptId, 'AttemptSettled')).toBe(1);
      },
      180_000,
    );

    h.test(
      'resumes relaying and delivering when the dispatcher stalls past its leases',
      async () => {
        const { attemptId } = await h.flow(5);
        // Frozen longer than the lease TTL (3 s): on waking, its leases have lapsed and its timers are late.
        await h.topology.pause(h.topology.get('webhook-dispatcher'), 4_000);
        await h.until('settled', async () => (await h.status(attemptId)) === 'settled');
        await h.until('three webhooks after the stall', () => h.eventsOf(attemptId).length >= 3, 30_000);
        expect(h.eventsOf(attemptId)).toEqual(LIFECYCLE);
        expect(h.receiver.duplicates()).toBe(0);
        expect(await duplicatedAttemptFacts(h.store, attemptId)).toEqual([]);
      },
      120_000,
    );

    h.test(
      'answers 503 dependency_unavailable with Retry-After while quoting is down, and the retry runs once',
      async () => {
        await h.topology.kill(h.topology.get('quoting'));
        const body = quoteBody(h.sandbox, 5);
        const quote = () =>
          signedRequest({
            port: h.port,
            partner: h.partner,
            method: 'POST',
            path: '/api/external/intents/quote',
            body,
            idempotencyKey: 'quote-while-quoting-is-down',
          });
        const refused = await quote();
        expect(refused.status).toBe(503);
        expect(refused.json).toMatchObject({ code: 'dependency_unavailable' });
        expect(String(refused.headers['retry-after'])).toMatch(/^[1-9][0-9]*$/);

        await h.topology.start('quoting');
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
        const session = await h.store.readStream(`intent-${sessionId}`);
        expect(session.filter((e) => e.type === 'IntentQuoted')).toHaveLength(1);
      },
      120_000,
    );

    h.test(
      'serves status reads and lookups in the gateway itself, fresh with what another process just recorded',
      async () => {
        const get = (path: string) =>
          signedRequest({ port: h.port, partner: h.partner, method: 'GET', path });
        const search = (body: object) =>
          signedRequest({
            port: h.port,
            partner: h.partner,
            method: 'POST',
            path: '/api/external/attempts/search',
            body,
          });
        type Found = {
          attempts: { attemptId: string; transactions: { chainId: number; txHash: string }[] }[];
        };
        // The evidence is recorded by the settlement-tracker; the search right after it, by the gateway, finds it.
        const { attemptId, recipient } = await h.flow(2);
        const found = await search({ recipient });
        expect(found.status).toBe(200);
        const [summary] = (found.json as Found).attempts;
        expect(summary.attemptId).toBe(attemptId);
        const [tx] = summary.transactions;
        expect(tx).toBeDefined();

        // Nothing serves the queries over Kafka any more: a request there would wait out the 8 s deadline (503).
        await h.topology.kill(h.topology.get('settlement-tracker'));
        const status = await get(`/api/external/attempts/${attemptId}/status`);
        expect([status.status, (status.json as { attemptId: string }).attemptId]).toEqual([200, attemptId]);
        const byTx = await get(`/api/external/transactions/${tx.chainId}/${tx.txHash}/attempt`);
        expect([byTx.status, (byTx.json as { attemptId: string }).attemptId]).toEqual([200, attemptId]);

        // An attempt the execution app prepares is found by the next search and read by the next status read.
        const quoted = await signedRequest({
          port: h.port,
          partner: h.partner,
          method: 'POST',
          path: '/api/external/intents/quote',
          body: quoteBody(h.sandbox, 3),
        });
        expect(quoted.status).toBe(200);
        const sessionId = (quoted.json as { intentSessionId: string }).intentSessionId;
        const prepared = await signedRequest({
          port: h.port,
          partner: h.partner,
          method: 'POST',
          path: `/api/external/intents/${sessionId}/prepare`,
          body: {},
        });
        expect(prepared.status).toBe(200);
        const preparedId = (prepared.json as { attemptId: string }).attemptId;
        const wallet = h.sandbox.manifest.wallets.users[3].address;
        const afterPrepare = await search({ walletAddress: wallet });
        expect(afterPrepare.status).toBe(200);
        expect((afterPrepare.json as Found).attempts.map((a) => a.attemptId)).toContain(preparedId);
        const preparedStatus = await get(`/api/external/attempts/${preparedId}/status`);
        expect([preparedStatus.status, (preparedStatus.json as { status: string }).status]).toEqual([
          200,
          'prepared',
        ]);

        await h.topology.start('settlement-tracker');
        await h.until(
          'settled once the tracker is back',
          async () => (await h.status(attemptId)) === 'settled',
        );
      },
      180_000,
    );
  });
}
