import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_CONTROL_LIMITS, type WebhookRecoverRange } from '@svc/contract';
import { webhookStreamId } from '@svc/domain';
import { SqliteEventStore, openReadModelDatabase } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { idleDispatcher } from '../dispatch/idle-dispatcher.test-helper';
import { WebhookControlService } from './webhook-control.service';
import { WebhookEventsReadModel } from './webhook-events.read-model';
import { partnerRequest } from './partner-request.test-helper';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const CAP = WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour;
const MINUTE = 60_000;

/**
 * The redelivery cap through the control plane over SQLite (security review N-L8): the partner may send one event again
 * at most CAP times in any hour; one more answers 429 webhook_redelivery_rate_limited with Retry-After, and a recovery
 * leaves the event out and lists it in `rateLimited`.
 */
describe('the redelivery cap of the webhook control plane on SQLite', () => {
  let dir: string;
  let store: SqliteEventStore;
  let model: WebhookEventsReadModel;
  let service: WebhookControlService;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-cap-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    model = new WebhookEventsReadModel(store, openReadModelDatabase(':memory:'));
    // Never ticked, so it delivers nothing: the test records each new pass's delivery itself.
    const dispatcher = idleDispatcher(store, ['p-a'], new ManualClock(T0));
    service = new WebhookControlService(store, dispatcher, model);
    for (const [attemptId, eventId] of [
      ['at_1', 'ev-1'],
      ['at_2', 'ev-2'],
    ])
      await store.append(
        webhookStreamId(attemptId),
        [
          {
            id: randomUUID(),
            type: 'WebhookQueued',
            data: {
              eventId,
              event: 'settled',
              attemptId,
              partnerId: 'p-a',
              lifecycleRevision: 5,
              occurredAt: T0 - 1_000,
              queuedAt: T0 - 1_000,
            },
          },
          {
            id: randomUUID(),
            type: 'WebhookDelivered',
            data: { eventId, attempt: 1, at: T0 - 900, httpStatus: 200 },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
  });
  afterEach(async () => {
    await model.onModuleDestroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = <B>(now: number, resourceId: string | null, body: B) =>
    partnerRequest('p-a', body, { resourceId, receivedAt: now });
  const redeliver = (eventId: string, now: number) => service.redeliver(request(now, eventId, null));
  /** What the dispatcher would record once the new pass went out. */
  const deliveredAgain = (attemptId: string, eventId: string, at: number) =>
    store.append(
      webhookStreamId(attemptId),
      [{ id: randomUUID(), type: 'WebhookDelivered', data: { eventId, attempt: 1, at, httpStatus: 200 } }],
      { expectedRevision: 'any' },
    );

  it(`answers 429 with Retry-After to the ${CAP + 1}th redelivery of an event within an hour, never to another event`, async () => {
    for (let n = 0; n < CAP; n++) {
      const reply = await redeliver('ev-1', T0 + n * MINUTE);
      expect(reply).toMatchObject({ ok: true, body: { action: 'redelivery_queued' } });
      await deliveredAgain('at_1', 'ev-1', T0 + n * MINUTE + 10);
    }
    const refused = await redeliver('ev-1', T0 + 20 * MINUTE);
    expect(refused).toEqual({
      ok: false,
      code: 'webhook_redelivery_rate_limited',
      message: expect.stringContaining(`${CAP} times in the last hour`),
      retryAfterSeconds: 40 * 60,
    });
    expect(await redeliver('ev-2', T0 + 20 * MINUTE)).toMatchObject({ ok: true });
    expect(await redeliver('ev-1', T0 + 60 * MINUTE)).toMatchObject({
      ok: true,
      body: { action: 'redelivery_queued' },
    });
  });

  it('leaves an event at the cap out of a recovery and lists it in rateLimited, sending the others', async () => {
    for (let n = 0; n < CAP; n++) {
      await redeliver('ev-1', T0 + n * MINUTE);
      await deliveredAgain('at_1', 'ev-1', T0 + n * MINUTE + 10);
    }
    const range: WebhookRecoverRange = { from: T0 - 60 * MINUTE, to: T0 };
    const reply = await service.recover(request(T0 + 30 * MINUTE, null, range));
    if (!reply.ok) throw new Error(reply.message);
    expect(reply.body.recovered.map((e) => e.eventId)).toEqual(['ev-2']);
    expect(reply.body.rateLimited).toEqual([
      {
        eventId: 'ev-1',
        event: 'settled',
        attemptId: 'at_1',
        occurredAt: new Date(T0 - 1_000).toISOString(),
        retryAt: new Date(T0 + 60 * MINUTE).toISOString(),
      },
    ]);
  });
});
