import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWebhookCursor } from '@svc/contract';
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
