import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWebhookCursor, encodeWebhookCursor, type WebhookEventsResponse } from '@svc/contract';
import { WEBHOOK_STREAM_PREFIX, webhookEventHistories, webhookStreamId } from '@svc/domain';
import {
  type EventStore,
  MemoryEventStore,
  type Position,
  SqliteEventStore,
  type RecordedEvent,
  openReadModelDatabase,
} from '@svc/event-store';
import { observedReads } from '@svc/testing';
import { decideWebhooks } from '../dispatch/webhook-stream';
import { listWebhookEvents } from './list-webhook-events';
import { WebhookEventsReadModel } from './webhook-events.read-model';
import { readWebhookStream, record } from './webhook-records';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
type Page = Omit<WebhookEventsResponse, 'apiVersion'>;

/**
 * The list as it was built before the index (a scan of every `webhook-` event after the cursor, in log order): the
 * oracle the read model must answer byte for byte like, cursors included. A cursor names the partner's last listed
 * event (security review N-L2); the scan finds where it stands in the log.
 */
async function scanned(
  store: EventStore,
  partnerId: string,
  cursor: string | null,
  pageSize: number,
): Promise<Page> {
  const decoded = cursor === null ? ({ kind: 'start' } as const) : decodeWebhookCursor(partnerId, cursor)!;
  let last: string | null = null;
  let position: Position | undefined;
  if (decoded.kind === 'after-event') {
    last = decoded.eventId;
    for (const event of await store.readAll({ streamPrefixes: [WEBHOOK_STREAM_PREFIX] }))
      if (isQueued(event, partnerId) && event.data['eventId'] === last) position = event.position;
  }
  const found: { attemptId: string; eventId: string }[] = [];
  let hasMore = false;
  scan: for (;;) {
    const events = await store.readAll({
      after: position,
      streamPrefixes: [WEBHOOK_STREAM_PREFIX],
      maxCount: 500,
    });
    for (const event of events) {
      if (isQueued(event, partnerId)) {
        if (found.length === pageSize) {
          hasMore = true;
          break scan;
        }
        found.push({
          attemptId: event.data['attemptId'] as string,
          eventId: event.data['eventId'] as string,
        });
      }
      position = event.position;
    }
    if (events.length < 500) break;
  }
  const events = [];
  for (const { attemptId, eventId } of found) {
    const history = webhookEventHistories(await readWebhookStream(store, attemptId)).find(
      (h) => h.eventId === eventId,
    );
    if (history) events.push(record(history));
  }
  return { events, nextCursor: encodeWebhookCursor(partnerId, found.at(-1)?.eventId ?? last), hasMore };
}

const isQueued = (event: RecordedEvent, partnerId: string) =>
  event.type === 'WebhookQueued' && event.data['partnerId'] === partnerId;

/** Every page of a partner's list from the start, following nextCursor until hasMore is false. */
async function allPages(list: (cursor: string | null) => Promise<Page | null>): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await list(cursor);
    expect(page).not.toBeNull();
    pages.push(page!);
    if (!page!.hasMore) return pages;
    cursor = page!.nextCursor;
  }
}

/** Queues lifecycle event `revision` of an attempt through the decider; every other one gets a failed try. */
async function queue(
  store: EventStore,
  partnerId: string,
  attemptId: string,
  revision: number,
): Promise<string> {
  const eventId = `${attemptId}-${revision}`;
  await decideWebhooks(store, attemptId, `queue:${eventId}`, {
    type: 'QueueWebhook',
    data: {
      eventId,
      event: (['wallet_submitted', 'provider_pending', 'settled'] as const)[revision % 3],
      attemptId,
      partnerId,
      lifecycleRevision: revision,
      occurredAt: T0 + revision * 1000,
      now: T0,
    },
  });
  if (revision === 0)
    await decideWebhooks(store, attemptId, `try:${eventId}`, {
      type: 'RecordDeliveryResult',
      data: {
        eventId,
        now: T0 + 10,
        random: 0,
        result: { kind: 'failure', status: 503, error: 'unavailable', retryAfterMs: null },
      },
    });
  return eventId;
}

type Opened = { store: EventStore; reopen: () => EventStore; cleanup: () => void };

describe.each<[string, () => Opened]>([
  [
    'memory',
    () => {
      const store = new MemoryEventStore();
      return { store, reopen: () => store, cleanup: () => undefined };
    },
  ],
  [
    'SQLite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'webhook-index-'));
      const file = join(dir, 'events.sqlite');
      return {
        store: SqliteEventStore.open({ file }),
        reopen: () => SqliteEventStore.open({ file }),
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
])('the webhook events read model over the %s event store', (_, open) => {
  let opened: Opened;
  let store: EventStore;
  let model: WebhookEventsReadModel;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(() => {
    opened = open();
    store = opened.store;
    model = new WebhookEventsReadModel(store, openReadModelDatabase(':memory:'));
    model.onApplicationBootstrap();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await model.onModuleDestroy();
    await store.close();
    opened.cleanup();
  });

  const list =
    (m: WebhookEventsReadModel, s: EventStore, partnerId: string, size: number) => (cursor: string | null) =>
      listWebhookEvents(s, m, partnerId, cursor, size);

  it('with many attempts of several partners in flight, a list sees every event queued before it, and only its own', async () => {
    const partners = ['p-a', 'p-b', 'p-c'];
    await Promise.all(
      partners.flatMap((partnerId) =>
        [0, 1, 2, 3].map(async (lane) => {
          for (let n = 0; n < 3; n++) {
            const attemptId = `at_${partnerId}_${lane}_${n}`;
            for (let revision = 0; revision < 2; revision++) {
              const eventId = await queue(store, partnerId, attemptId, revision);
              // Listed at once, from the start, while the other lanes keep writing.
              const listed = (await allPages(list(model, store, partnerId, 7))).flatMap((p) => p.events);
              expect(listed.map((e) => e.eventId)).toContain(eventId);
              expect(listed.every((e) => e.attemptId.startsWith(`at_${partnerId}_`))).toBe(true);
            }
          }
        }),
      ),
    );
    for (const partnerId of partners) {
      const listed = (await allPages(list(model, store, partnerId, 5))).flatMap((p) => p.events);
      expect(listed).toHaveLength(4 * 3 * 2);
      expect(new Set(listed.map((e) => e.eventId)).size).toBe(24);
      expect(listed.filter((e) => e.deliveries.length === 1)).toHaveLength(12);
    }
  });

  it('answers every page like a scan of the log from the same cursor, and a rebuilt instance does too', async () => {
    // Given: three partners' attempts interleaved in the log, written concurrently.
    await Promise.all(
      ['p-a', 'p-b', 'p-c'].map(async (partnerId, p) => {
        for (let n = 0; n < 4 + p * 2; n++)
          for (let revision = 0; revision < 3; revision++)
            await queue(store, partnerId, `at_${partnerId}_${n}`, revision);
      }),
    );
    const rebuiltStore = opened.reopen();
    const rebuilt = new WebhookEventsReadModel(rebuiltStore, openReadModelDatabase(':memory:'));
    closers.push(async () => {
      await rebuilt.onModuleDestroy();
      if (rebuiltStore !== store) await rebuiltStore.close();
    });
    for (const partnerId of ['p-a', 'p-b', 'p-c', 'p-none'])
      for (const size of [1, 2, 5, 100]) {
        const pages = await allPages(list(model, store, partnerId, size));
        const expected: Page[] = [];
        let cursor: string | null = null;
        for (const page of pages) {
          expected.push(await scanned(store, partnerId, cursor, size));
          cursor = page.nextCursor;
        }
        // Cursors included: a cursor names the partner's own last event, wherever the log was read to (N-L2).
        expect(pages).toEqual(expected);
        expect(await allPages(list(rebuilt, rebuiltStore, partnerId, size))).toEqual(pages);
      }
    // A cursor issued before the rebuild reads on in the rebuilt instance; the ids resolve to the same attempts.
    const first = await listWebhookEvents(store, model, 'p-b', null, 3);
    const readOn = await listWebhookEvents(rebuiltStore, rebuilt, 'p-b', first!.nextCursor, 3);
    expect(readOn).toEqual(await scanned(store, 'p-b', first!.nextCursor, 3));
    await rebuilt.fresh();
    expect(rebuilt.index.attemptOf('p-c', 'at_p-c_7-2')).toBe('at_p-c_7');
    expect(rebuilt.index.attemptOf('p-a', 'at_p-c_7-2')).toBeNull();
    // Recover: every attempt with an event that occurred in [T0 + 1s, T0 + 2s): revision 1 of each.
    expect(rebuilt.index.attemptsQueuedBetween('p-a', T0 + 1000, T0 + 2000).attempts).toEqual(
      [0, 1, 2, 3].map((n) => `at_p-a_${n}`),
    );
  });

  it('reads a bounded number of events for a page, however many events other partners stored', async () => {
    // Every readAll call, and every event the store hands over (log and streams), through this store.
    const { store: observed, reads } = observedReads(store);
    let handedOver = 0;
    const counted = new Proxy(observed, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'readAll' && key !== 'readStream') return value;
        return async (...args: unknown[]) => {
          const read = await (value as (...a: unknown[]) => Promise<unknown[]>)(...args);
          handedOver += read.length;
          return read;
        };
      },
    });
    const watched = new WebhookEventsReadModel(counted, openReadModelDatabase(':memory:'));
    closers.push(() => watched.onModuleDestroy());

    // Given: partner A's 6 attempts, then partner B's 400 attempts of 5 events each (2 000 events), appended in bulk.
    for (let n = 0; n < 6; n++) await queue(store, 'p-a', `at_a${n}`, 0);
    const bulk = async (from: number, count: number) => {
      for (let n = from; n < from + count; n++)
        await store.append(
          webhookStreamId(`at_b${n}`),
          [0, 1, 2, 3, 4].map((revision) => ({
            id: randomUUID(),
            type: 'WebhookQueued',
            data: {
              eventId: `b${n}-${revision}`,
              event: 'settled',
              attemptId: `at_b${n}`,
              partnerId: 'p-b',
              lifecycleRevision: revision,
              occurredAt: T0,
              queuedAt: T0,
            },
          })),
          { expectedRevision: 'any' },
        );
    };
    await bulk(0, 400);

    /** What one page of A costs, the index caught up beforehand (as the background pass keeps it). */
    const cost = async (cursor: string | null) => {
      await watched.fresh();
      const [calls, events] = [reads.length, handedOver];
      const page = await listWebhookEvents(counted, watched, 'p-a', cursor, 4);
      return { page: page!, events: handedOver - events, logReads: reads.length - calls };
    };
    const first = await cost(null);
    expect(first.page.events).toHaveLength(4);
    // The catch-up read (nothing new) and the 4 attempts' streams (queued + try each).
    expect(first).toMatchObject({ events: 8, logReads: 1 });
    const second = await cost(first.page.nextCursor);
    // The cursor is found in the index (no log read: security review N-L2), then 2 attempts' streams.
    expect(second.page.events.map((e) => e.eventId)).toEqual(['at_a4-0', 'at_a5-0']);
    expect(second).toMatchObject({ events: 4, logReads: 1 });

    // Twice as many events of B: the same cost for A.
    await bulk(400, 400);
    expect(await cost(null)).toMatchObject({ events: 8, logReads: 1 });
    const last = await cost(first.page.nextCursor);
    expect(last).toMatchObject({ events: 4, logReads: 1 });
    // The scan it replaces read every one of them for that last page.
    const before = handedOver;
    await scanned(counted, 'p-a', first.page.nextCursor, 4);
    expect(handedOver - before).toBeGreaterThan(4000);
  });
});
