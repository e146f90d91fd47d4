import { type AppProcess, DISTRIBUTED_APPS, rawRequest } from '@svc/testing';
import {
  awaitHandovers,
  expectDoneOnce,
  expectSettledOnce,
  retries,
  startStatusReads,
} from './replica-checks';
import { formatHandovers, heldShards, victimsAndSurvivors } from './replica-handover';
import { handledMessages, latestAssignments } from './replica-logs';
import { callUntilServed, quoteBody, startPartnerTraffic } from './retrying-partner';
import {
  skippedTopology,
  type TopologyHarness,
  type TopologyInfra,
  useTopologyHarness,
  WORK_SHARDS,
} from './topology-harness';

const REPLICAS = Object.fromEntries(DISTRIBUTED_APPS.map((app) => [app, 2]));

/**
 * Two replicas of every app (two gateways behind a round-robin balancer, two of each feature) over one broker and
 * one event store: the work is shared, a SIGKILLed replica of each app is taken over by its survivor with nothing
 * lost and nothing done twice, and a SIGTERMed one hands over with no request failing. The rebalance and takeover
 * times are printed. Runs with LOG_LEVEL=debug: the Kafka clients log their group joins at that level.
 */
export function describeReplicas(
  title: string,
  startInfra: () => Promise<TopologyInfra>,
  options: { skipReason?: string } = {},
): void {
  if (skippedTopology(title, 'runs two replicas of every app', options.skipReason)) return;
  describe(title, () => {
    // The fill takes 3 s: attempts are still in flight when replicas die under them.
    const h = useTopologyHarness(startInfra, { instances: REPLICAS, fillDelayMs: 3000, logLevel: 'debug' });

    h.test(
      'shares the work between the replicas of every app, and a flow settles with its webhooks once each, in order',
      async () => {
        for (const app of DISTRIBUTED_APPS) expect(h.topology.running(app)).toHaveLength(2);
        await h.until('every replica holds partitions of its groups', () =>
          h.topology.apps.every((app) => latestAssignments(app).every((n) => n > 0)),
        );
        for (const app of ['settlement-tracker', 'webhook-dispatcher'] as const) {
          await h.until(`the ${app} replicas share the ${WORK_SHARDS} shards`, () => {
            const held = h.topology.running(app).map((r) => heldShards(r) ?? []);
            return held.every((s) => s.length > 0) && new Set(held.flat()).size === WORK_SHARDS;
          });
        }

        const { attemptId } = await h.flow(0);
        // Quotes and prepares without a key spread over both partitions of their topics, so over both replicas.
        for (let i = 0; i < 6; i++) {
          const quoted = await callUntilServed({
            port: h.port,
            partner: h.partner,
            method: 'POST',
            path: '/api/external/intents/quote',
            body: quoteBody(h.sandbox, 4),
            idempotencyKey: `spread-${i}`,
          });
          expect(quoted.response.status).toBe(200);
        }
        await expectSettledOnce(h, attemptId);
        // The lookups: whichever gateway replica the balancer picks answers them itself, from the read models.
        const lookup = (method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string) =>
          callUntilServed({ port: h.port, partner: h.partner, method, path, body, idempotencyKey });
        const snapshot = (await lookup('GET', `/api/external/attempts/${attemptId}/status`)).response
          .json as {
          walletAddress: string;
          perChainStatus: { chainId: number; txHashes: string[] }[];
        };
        const [{ chainId, txHashes }] = snapshot.perChainStatus;
        for (let i = 0; i < 6; i++) {
          const found = (
            await lookup('GET', `/api/external/transactions/${chainId}/${txHashes.at(-1)}/attempt`)
          ).response;
          const listed = (
            await lookup(
              'POST',
              '/api/external/attempts/search',
              { walletAddress: snapshot.walletAddress, status: 'settled', limit: 100 },
              `lookup-${i}`,
            )
          ).response;
          expect([found.status, (found.json as { attemptId: string }).attemptId]).toEqual([200, attemptId]);
          expect(
            (listed.json as { attempts: { attemptId: string }[] }).attempts.map((a) => a.attemptId),
          ).toContain(attemptId);
        }
        const queries = (app: AppProcess) =>
          handledMessages(app).filter((m) =>
            ['settlement.status', 'settlement.search-attempts', 'settlement.transaction-attempt'].includes(
              m.pattern,
            ),
          ).length;
        for (const gateway of h.topology.running('gateway')) expect(queries(gateway)).toBeGreaterThan(0);
        for (const tracker of h.topology.running('settlement-tracker')) expect(queries(tracker)).toBe(0);
        const gateways = h.topology.running('gateway').map((g) => g.port);
        expect(new Set(h.balancer.served)).toEqual(new Set(gateways));
        for (const quoting of h.topology.running('quoting')) {
          expect(
            handledMessages(quoting).filter((m) => m.pattern === 'quoting.quote').length,
          ).toBeGreaterThan(0);
        }
        for (const app of h.topology.apps) {
          const ready = await rawRequest({ port: app.opsPort, method: 'GET', path: '/readyz' });
          expect({ app: app.instanceId, status: ready.status }).toEqual({ app: app.instanceId, status: 200 });
        }
      },
      240_000,
    );

    h.test(
      'finishes the work with nothing lost and nothing done twice when one replica of each app is SIGKILLed mid-flight',
      async () => {
        h.receiver.setUp(false); // the lifecycle webhooks wait in the dispatchers' queues
        const flows = await Promise.all([1, 2, 3].map((user) => h.flow(user)));
        const traffic = startPartnerTraffic({ ...partnerOf(h), userIndex: 4, lanes: 2, name: 'kill' });
        await h.until('partner traffic flowing', () => traffic.done.length >= 2);
        const pairs = victimsAndSurvivors(h.topology);
        const killedAt = Date.now();
        await Promise.all(pairs.map(([victim]) => h.topology.kill(victim))); // SIGKILL: no leave, no release
        h.receiver.setUp(true);

        const handovers = await awaitHandovers(h, pairs, killedAt);
        const doneAtTakeover = traffic.done.length;
        await h.until(
          'partner traffic served by the survivors',
          () => traffic.done.length >= doneAtTakeover + 4,
        );
        await traffic.stop();
        for (const { attemptId } of flows) await expectSettledOnce(h, attemptId);
        await expectDoneOnce(h, traffic.done);
        process.stdout.write(
          `${formatHandovers('replicas: takeover after SIGKILL of one replica of each app (ms from the kill)', handovers)}\n` +
            `  partner operations: ${traffic.done.length}, calls retried (409/502/503): ${retries(traffic.done)}\n`,
        );
      },
      300_000,
    );

    h.test(
      'hands the work over without a gap when one replica of each app is stopped gracefully (SIGTERM)',
      async () => {
        // Two of each again: the replicas killed above come back and take their share.
        await Promise.all(
          DISTRIBUTED_APPS.filter((a) => a !== 'gateway').map((app) => h.topology.start(app)),
        );
        await h.topology.start('gateway');
        await h.until(
          'the new replicas hold partitions and shards',
          () =>
            h.topology.apps
              .filter((a) => a.child.exitCode === null && a.child.signalCode === null)
              .every((app) => latestAssignments(app).every((n) => n > 0) && heldShards(app)?.length !== 0),
          120_000,
        );
        const flows = await Promise.all([1, 2].map((user) => h.flow(user)));
        const traffic = startPartnerTraffic({ ...partnerOf(h), userIndex: 4, lanes: 2, name: 'stop' });
        const reads = startStatusReads(h, flows[0].attemptId);
        await h.until('partner traffic flowing', () => traffic.done.length >= 2);
        const pairs = victimsAndSurvivors(h.topology);
        // A balancer stops sending to a pod before the pod is told to stop (Kubernetes endpoints, then SIGTERM).
        for (const [victim] of pairs) if (victim.name === 'gateway') h.balancer.drain(victim.port);
        const stoppedAt = Date.now();
        await Promise.all(pairs.map(([victim]) => h.topology.stop(victim)));
        const stopMs = Date.now() - stoppedAt;

        const handovers = await awaitHandovers(h, pairs, stoppedAt);
        const doneAtHandover = traffic.done.length;
        await h.until(
          'partner traffic served by the survivors',
          () => traffic.done.length >= doneAtHandover + 4,
        );
        await traffic.stop();
        const statuses = await reads.stop();
        for (const { attemptId } of flows) await expectSettledOnce(h, attemptId);
        await expectDoneOnce(h, traffic.done);
        process.stdout.write(
          `${formatHandovers('replicas: handover after SIGTERM of one replica of each app (ms from the signal)', handovers)}\n` +
            `  all five stopped in ${(stopMs / 1000).toFixed(1)} s; partner operations: ${traffic.done.length}, ` +
            `status reads: ${statuses.length}, slowest status read ${Math.max(...statuses.map((r) => r.ms))} ms\n`,
        );
        // No gap: not one partner call had to be retried, not one status read failed.
        expect(retries(traffic.done)).toBe(0);
        expect(statuses.filter((r) => r.status !== 200)).toEqual([]);
      },
      300_000,
    );
  });
}

function partnerOf(h: TopologyHarness) {
  return { port: h.port, partner: h.partner, sandbox: h.sandbox };
}
