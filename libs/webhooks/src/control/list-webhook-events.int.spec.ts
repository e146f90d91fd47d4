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
    // Not a cursor, one naming an event the partner does not have, another partner's.
    for (const cursor of [
      'nope',
      encodeWebhookCursor('p-a', 'no-such-event'),
      encodeWebhookCursor('p-b', 'a0-0'),
    ])
      expect(await list('p-a', cursor)).toBeNull();
    expect(await list('p-a', encodeWebhookCursor('p-a', 'a0-0'))).toMatchObject({
      events: [],
      hasMore: false,
    });
  });
});

describe('webhook cursors (security review N-L2)', () => {
  /** A cursor of the form this service issued before N-L2: the log position it read on after, unsigned. */
  const legacyCursor = (position: string) =>
    Buffer.from(JSON.stringify({ v: 1, p: position }), 'utf8').toString('base64url');

  it("names the partner's own place in its list, not the log's: other partners' events leave it as it was", async () => {
    await queue('p-a', 'at_a0', randomUUID(), 0);
    await queue('p-b', 'at_b0', randomUUID(), 0);
    const first = await list('p-a', null);
    expect(first!.events).toHaveLength(1);
    // Another partner's activity: A's next poll answers nothing new and the very same cursor.
    for (let n = 1; n <= 5; n++) await queue('p-b', `at_b${n}`, randomUUID(), 0);
    const polled = await list('p-a', first!.nextCursor);
    expect(polled).toEqual({ events: [], nextCursor: first!.nextCursor, hasMore: false });
    // A partner that has no events yet gets the same cursor however busy the log is.
    const empty = (await list('p-c', null))!.nextCursor;
    await queue('p-b', 'at_b9', randomUUID(), 0);
    expect((await list('p-c', null))!.nextCursor).toBe(empty);
    // Its own next event moves it on.
    const next = randomUUID();
    await queue('p-a', 'at_a1', next, 0);
    const later = await list('p-a', first!.nextCursor);
    expect(later!.events.map((e) => e.eventId)).toEqual([next]);
    expect(later!.nextCursor).not.toBe(first!.nextCursor);
  });

  it("refuses another partner's cursor", async () => {
    await queue('p-a', 'at_a0', randomUUID(), 0);
    await queue('p-b', 'at_b0', randomUUID(), 0);
    for (const pageSize of [1, 100]) {
      const mine = (await list('p-a', null, pageSize))!.nextCursor;
      expect(await list('p-b', mine)).toBeNull();
    }
    expect(await list('p-b', (await list('p-c', null))!.nextCursor)).toBeNull();
  });

  it('refuses a cursor edited in any one character', async () => {
    for (let n = 0; n < 3; n++) await queue('p-a', `at_a${n}`, randomUUID(), 0);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const cursor of [(await list('p-a', null, 1))!.nextCursor, (await list('p-a', null))!.nextCursor]) {
      expect(await list('p-a', cursor)).not.toBeNull();
      const accepted: string[] = [];
      for (let i = 0; i < cursor.length; i++)
        for (const step of [1, 17, 32]) {
          const swapped = alphabet[(alphabet.indexOf(cursor[i]) + step) % alphabet.length];
          const edited = cursor.slice(0, i) + swapped + cursor.slice(i + 1);
          if ((await list('p-a', edited)) !== null) accepted.push(edited);
        }
      expect(accepted).toEqual([]);
    }
  });

  it("reads on from a cursor issued before (a log position) within the partner's own list, and answers a new one", async () => {
    await queue('p-a', 'at_a0', 'a0-0', 0);
    await queue('p-b', 'at_b0', 'b0-0', 0);
    await queue('p-a', 'at_a1', 'a1-0', 0);
    const positions = new Map(
      (await store.readAll({})).map((e) => [e.data['eventId'] as string, e.position] as const),
    );
    const old = await list('p-a', legacyCursor(positions.get('a0-0')!));
    expect(old!.events.map((e) => e.eventId)).toEqual(['a1-0']);
    expect(old!.nextCursor).toBe((await list('p-a', null))!.nextCursor);
    // Any well-formed position only moves within the partner's list: before its first event, after its last.
    expect((await list('p-a', legacyCursor('0')))!.events.map((e) => e.eventId)).toEqual(['a0-0', 'a1-0']);
    expect(await list('p-a', legacyCursor('99999999'))).toEqual({
      events: [],
      nextCursor: old!.nextCursor,
      hasMore: false,
    });
    for (const position of ['not-a-position', '-5', '1.5', ''])
      expect(await list('p-a', legacyCursor(position))).toBeNull();
  });

  it('never hands a position from a cursor to the event store (on EventStoreDB a forged one could fail the request)', async () => {
    await queue('p-a', 'at_a0', 'a0-0', 0);
    const forged = '4242424242';
    const guarded = new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'readAll') return typeof value === 'function' ? value.bind(target) : value;
        return (options: Parameters<typeof target.readAll>[0]) => {
          if (options?.after === forged) throw new Error('the store was handed a position from a cursor');
          return target.readAll(options);
        };
      },
    });
    const page = await listWebhookEvents(guarded, model, 'p-a', legacyCursor(forged));
    expect(page).toMatchObject({ events: [], hasMore: false });
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
