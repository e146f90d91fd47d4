import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWebhookCursor } from '@svc/contract';
import { performance } from 'node:perf_hooks';
import { webhookStreamId } from '@svc/domain';
import { SqliteEventStore, openReadModelDatabase } from '@svc/event-store';
import { decideWebhooks } from '../dispatch/webhook-stream';
import { listWebhookEvents } from './list-webhook-events';
import { WebhookEventsReadModel } from './webhook-events.read-model';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
let dir: string;
let store: SqliteEventStore;
let model: WebhookEventsReadModel;
const list = (partnerId: string, cursor: string | null, pageSize?: number) =>
  listWebhookEvents(store, model, partnerId, cursor, pageSize);

async function queue(partnerId: string, attemptId: string, eventId: string, revision: number) {
  await decideWebhooks(store, attemptId, `queue:${eventId}`, {
    type: 'QueueWebhook',
    data: {
      eventId,
      event: revision === 0 ? 'wallet_submitted' : 'settled',
      attemptId,
      partnerId,
      lifecycleRevision: revision,
      occurredAt: T0 + revision,
      now: T0,
    },
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-list-'));
  store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  model = new WebhookEventsReadModel(store, openReadModelDatabase(':memory:'));
});
afterEach(async () => {
  await model.onModuleDestroy();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('listWebhookEvents on SQLite', () => {
  it("pages through one partner's events oldest first, never another's, and a cursor sees only later ones", async () => {
    // Two partners' attempts interleaved, written concurrently per partner.
    await Promise.all(
      ['a', 'b'].map(async (partner) => {
        for (let n = 0; n < 6; n++) {
          await queue(`p-${partner}`, `at_${partner}${n}`, `${partner}${n}-0`, 0);
          await queue(`p-${partner}`, `at_${partner}${n}`, `${partner}${n}-1`, 1);
        }
      }),
    );
    const pages: string[][] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await list('p-a', cursor, 5);
      expect(page).not.toBeNull();
      pages.push(page!.events.map((e) => e.eventId));
      expect(page!.events.every((e) => e.attemptId.startsWith('at_a'))).toBe(true);
      cursor = page!.nextCursor;
      if (!page!.hasMore) break;
    }
    expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
    expect(pages.flat()).toEqual(Array.from({ length: 6 }, (_, n) => [`a${n}-0`, `a${n}-1`]).flat());

    // Nothing new: the same cursor answers an empty page; a new event of each partner: only this partner's.
    expect(await list('p-a', cursor, 5)).toMatchObject({ events: [], hasMore: false });
    await queue('p-b', 'at_b9', 'b9-0', 0);
    await queue('p-a', 'at_a9', 'a9-0', 0);
    const later = await list('p-a', cursor, 5);
    expect(later!.events).toEqual([
      {
        eventId: 'a9-0',
        event: 'wallet_submitted',
        attemptId: 'at_a9',
        occurredAt: new Date(T0).toISOString(),
        status: 'queued',
        nextAttemptAt: null,
        deliveries: [],
        deliveryCount: 0,
        deliveriesOmitted: 0,
        historyCompacted: false,
        firstDeliveryAt: null,
        lastDeliveryAt: null,
      },
    ]);
    expect(await list('p-c', null, 5)).toMatchObject({ events: [], hasMore: false });
  });

  it('refuses a cursor it did not issue', async () => {
    await queue('p-a', 'at_a0', 'a0-0', 0);
    for (const cursor of ['nope', encodeWebhookCursor('not-a-position'), encodeWebhookCursor('-5')])
      expect(await list('p-a', cursor)).toBeNull();
  });
});

describe('listing an event with many tries (security review N-L8)', () => {
  it('lists an event with 5 000 tries with its last 20 and how many there are', async () => {
    await queue('p-a', 'at_long', 'long-0', 0);
    // 625 passes of 8 failed tries, each pass after a redelivery: 5 000 tries, appended in batches.
    const tries = 5_000;
    const events = [];
    for (let n = 0; n < tries; n++) {
      const attempt = (n % 8) + 1;
      const at = T0 + 1_000 + n * 1_000;
      events.push(
        attempt === 8
          ? {
              type: 'WebhookAbandoned',
              data: {
                eventId: 'long-0',
                attempt,
                at,
                reason: 'retries exhausted',
                httpStatus: 500,
                latencyMs: 3,
              },
            }
          : {
              type: 'WebhookAttempted',
              data: {
                eventId: 'long-0',
                attempt,
                at,
                httpStatus: 500,
                error: 'HTTP 500',
                nextAttemptAt: at + 500,
                latencyMs: 3,
              },
            },
      );
      if (attempt === 8 && n + 1 < tries)
        events.push({
          type: 'WebhookRedeliveryRequested',
          data: { eventId: 'long-0', at: at + 1, requestedBy: 'ops' },
        });
    }
    for (let i = 0; i < events.length; i += 500)
      await store.append(
        webhookStreamId('at_long'),
        events.slice(i, i + 500).map((e) => ({ id: randomUUID(), ...e })),
        { expectedRevision: 'any' },
      );
    await list('p-a', null); // warm: the read model catches up with the log

    const times: number[] = [];
    let page: Awaited<ReturnType<typeof list>> = null;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      page = await list('p-a', null);
      times.push(performance.now() - started);
    }
    const elapsedMs = times.sort((a, b) => a - b)[2];
    const readStarted = performance.now();
    await store.readStream(webhookStreamId('at_long'));
    const readMs = performance.now() - readStarted;
    const bytes = Buffer.byteLength(JSON.stringify(page));
    process.stdout.write(
      `list of an event with ${tries} tries (${events.length + 1} stream events): median ${elapsedMs.toFixed(1)} ms ` +
        `(of which about ${readMs.toFixed(1)} ms reading the stream), ${bytes} bytes\n`,
    );

    const [event] = page!.events;
    expect(event.deliveries).toHaveLength(20);
    expect(event.deliveries.at(-1)).toMatchObject({ at: new Date(T0 + 1_000 + 4_999 * 1_000).toISOString() });
    expect(event).toMatchObject({
      deliveryCount: tries,
      deliveriesOmitted: tries - 20,
    });
    expect(bytes).toBeLessThan(8_000);
    expect(elapsedMs).toBeLessThan(1_000); // generous: measured figures are printed above
  });
});
