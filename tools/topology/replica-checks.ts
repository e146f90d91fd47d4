import { type AppProcess, duplicatedAttemptFacts, signedRequest } from '@svc/testing';
import { type Handover, measureHandover } from './replica-handover';
import { type PartnerOperation } from './retrying-partner';
import { LIFECYCLE, type TopologyHarness, WORK_SHARDS } from './topology-harness';

// What the replica suite asserts and measures, over the harness.

/** Waits until every survivor rejoined its groups and holds its app's shards (and the relay), then measures. */
export async function awaitHandovers(
  h: TopologyHarness,
  pairs: [AppProcess, AppProcess][],
  since: number,
): Promise<Handover[]> {
  const measure = () => pairs.map(([gone, survivor]) => measureHandover(survivor, gone, since, WORK_SHARDS));
  await h.until(
    'every survivor to rebalance and take over the leases',
    () => measure().every((m) => m.complete),
    120_000,
  );
  return measure();
}

/** The attempt settles, its webhooks arrive once each and in order, and no fact of it is recorded twice. */
export async function expectSettledOnce(h: TopologyHarness, attemptId: string): Promise<void> {
  await h.until(`${attemptId} settled`, async () => (await h.status(attemptId)) === 'settled', 120_000);
  await awaitWebhooks(h, attemptId);
  expect(h.eventsOf(attemptId)).toEqual(LIFECYCLE);
  expect(h.receiver.duplicates()).toBe(0);
  expect(await h.recorded(attemptId, 'AttemptSettled')).toBe(1);
  expect(await duplicatedAttemptFacts(h.store, attemptId)).toEqual([]);
}

/**
 * Waits for an attempt's lifecycle webhooks. The suites take the receiver down while webhooks are queued, so an event
 * whose first try and its 5 s retry both failed waits 5 minutes for its next (RETRY_SCHEDULE_MS): every 15 s the
 * partner asks for such a retry now (POST /webhooks/redeliver answers `retry_now`), as a partner whose endpoint was
 * down would. An event the service had lost would not be listed, and is never delivered.
 */
async function awaitWebhooks(h: TopologyHarness, attemptId: string): Promise<void> {
  let askedAt = Date.now();
  await h.until(
    `${attemptId} webhooks`,
    async () => {
      if (h.eventsOf(attemptId).length >= LIFECYCLE.length) return true;
      if (Date.now() - askedAt > 15_000) {
        askedAt = Date.now();
        await retryWaitingWebhooks(h, attemptId);
      }
      return false;
    },
    120_000,
  );
}

/** The attempt's webhook events waiting more than 10 s for their next retry, each asked to be retried now. */
export async function retryWaitingWebhooks(h: TopologyHarness, attemptId: string): Promise<number> {
  const waiting: string[] = [];
  let path = '/api/external/webhooks/events';
  for (;;) {
    const page = await signedRequest({ port: h.port, partner: h.partner, method: 'GET', path });
    if (page.status !== 200) return 0; // a gateway on its way down: asked again in 15 s
    const body = page.json as {
      events: { eventId: string; attemptId: string; status: string; nextAttemptAt: string | null }[];
      nextCursor: string;
      hasMore: boolean;
    };
    for (const e of body.events)
      if (
        e.attemptId === attemptId &&
        e.status === 'retrying' &&
        e.nextAttemptAt !== null &&
        Date.parse(e.nextAttemptAt) - Date.now() > 10_000
      )
        waiting.push(e.eventId);
    if (!body.hasMore) break;
    path = `/api/external/webhooks/events/after/${body.nextCursor}`;
  }
  for (const eventId of waiting) {
    await signedRequest({
      port: h.port,
      partner: h.partner,
      method: 'POST',
      path: `/api/external/webhooks/redeliver/${eventId}`,
      body: {},
      idempotencyKey: `retry-now-${eventId}-${Date.now()}`,
    });
  }
  process.stdout.write(`  ${attemptId}: ${waiting.length} webhook(s) waiting for a retry, asked now\n`);
  return waiting.length;
}

/** Every partner operation quoted its session once and prepared it once, the attempt the partner was given. */
export async function expectDoneOnce(h: TopologyHarness, operations: PartnerOperation[]): Promise<void> {
  expect(new Set(operations.map((o) => o.intentSessionId)).size).toBe(operations.length);
  for (const op of operations) {
    const session = await h.store.readStream(`intent-${op.intentSessionId}`);
    const quoted = session.filter((e) => e.type === 'IntentQuoted');
    const prepared = session.filter((e) => e.type === 'IntentPrepared');
    expect({
      key: op.key,
      quoted: quoted.length,
      prepared: prepared.map((e) => e.data['attemptId']),
    }).toEqual({
      key: op.key,
      quoted: 1,
      prepared: [op.attemptId],
    });
  }
}

export function retries(operations: PartnerOperation[]): number {
  return operations.reduce((n, o) => n + o.retried.length, 0);
}

/** A partner polling one attempt's status every 250 ms through the balancer, each answer and its latency kept. */
export function startStatusReads(h: TopologyHarness, attemptId: string) {
  const answers: { status: number; ms: number }[] = [];
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const started = Date.now();
      const status = await signedRequest({
        port: h.port,
        partner: h.partner,
        method: 'GET',
        path: `/api/external/attempts/${attemptId}/status`,
      }).then(
        (res) => res.status,
        () => 0, // the connection broke
      );
      answers.push({ status, ms: Date.now() - started });
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      return answers;
    },
  };
}
