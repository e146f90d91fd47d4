import { deciderSpec } from '@svc/testing';
import { nextDue } from './next-due';
import {
  abandoned,
  attempted,
  delivered,
  fold,
  ok,
  queued,
  record,
  redeliver,
  redeliveryRequested,
  retryRequested,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const refused = (code: string) => expect.objectContaining({ name: 'WebhookDeliveryRefusedError', code });
const due = (eventId: string, attempt: number) => expect.objectContaining({ eventId, attempt });

describe('RequestRedelivery', () => {
  it('sends a delivered event again', () => {
    webhooks
      .given([queued('ev-1'), delivered('ev-1', 1, T0)])
      .when(redeliver('ev-1', T0 + 60_000, 'alice'))
      .then([redeliveryRequested('ev-1', T0 + 60_000, 'alice')]);
  });

  it('sends an abandoned event again', () => {
    webhooks
      .given([queued('ev-1'), abandoned('ev-1', 1, T0, 'gone', 410)])
      .when(redeliver('ev-1', T0 + 60_000))
      .then([redeliveryRequested('ev-1', T0 + 60_000)]);
  });

  it('starts a new pass: queued, tries from 1 again, a full retry schedule', () => {
    const history = [
      queued('ev-1'),
      abandoned('ev-1', 8, T0, 'retries exhausted after 8 tries: HTTP 500', 500),
      redeliveryRequested('ev-1', T0 + 1),
    ];
    expect(fold(history)).toMatchObject({
      entries: [{ eventId: 'ev-1', status: 'queued', attempts: 0, nextAttemptAt: null, lastError: null }],
    });
    expect(nextDue(fold(history), T0 + 1)).toEqual(due('ev-1', 1));
    webhooks
      .given(history)
      .when(record('ev-1', T0 + 2, ok()))
      .then([delivered('ev-1', 1, T0 + 2)]);
  });

  it('queues the new pass at the end: it never overtakes an event still pending', () => {
    const history = [
      queued('ev-1'),
      queued('ev-2'),
      delivered('ev-1', 1, T0),
      attempted('ev-2', 1, T0 + 1, T0 + 5_001),
      redeliveryRequested('ev-1', T0 + 2),
    ];
    expect(fold(history)).toMatchObject({
      entries: [
        { eventId: 'ev-2', status: 'retrying' },
        { eventId: 'ev-1', status: 'queued' },
      ],
    });
    expect(nextDue(fold(history), T0 + 3)).toBeNull();
    expect(nextDue(fold(history), T0 + 5_001)).toEqual(due('ev-2', 2));
    webhooks
      .given(history)
      .when(record('ev-1', T0 + 3, ok()))
      .thenThrows(refused('webhook_not_head'));
    const ev2Delivered = [...history, delivered('ev-2', 2, T0 + 5_001)];
    expect(nextDue(fold(ev2Delivered), T0 + 5_001)).toEqual(due('ev-1', 1));
  });

  it('may be asked again after the new pass ended', () => {
    webhooks
      .given([
        queued('ev-1'),
        delivered('ev-1', 1, T0),
        redeliveryRequested('ev-1', T0 + 1),
        delivered('ev-1', 1, T0 + 2),
      ])
      .when(redeliver('ev-1', T0 + 3))
      .then([redeliveryRequested('ev-1', T0 + 3)]);
  });

  describe('of an event waiting for its next retry', () => {
    const waiting = [queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5_000)];

    it('tries it now: due at once, in the same pass (its tries so far still count)', () => {
      webhooks
        .given(waiting)
        .when(redeliver('ev-1', T0 + 1, 'alice'))
        .then([retryRequested('ev-1', T0 + 1, 'alice')]);
      const after = [...waiting, retryRequested('ev-1', T0 + 1, 'alice')];
      expect(nextDue(fold(waiting), T0 + 1)).toBeNull();
      expect(nextDue(fold(after), T0 + 1)).toEqual(due('ev-1', 2));
      expect(fold(after)).toMatchObject({ entries: [{ status: 'retrying', attempts: 1 }] });
      webhooks
        .given(after)
        .when(record('ev-1', T0 + 2, ok()))
        .then([delivered('ev-1', 2, T0 + 2)]);
    });

    it('changes nothing once the retry is due anyway', () => {
      webhooks
        .given(waiting)
        .when(redeliver('ev-1', T0 + 5_000))
        .then([]);
    });

    it('does not let an event behind the head overtake it', () => {
      const history = [queued('ev-1'), queued('ev-2'), attempted('ev-1', 1, T0, T0 + 5_000)];
      webhooks
        .given(history)
        .when(redeliver('ev-2', T0 + 1))
        .thenThrows(refused('webhook_delivery_pending'));
    });
  });

  describe('refuses', () => {
    it('an unknown event', () => {
      webhooks.given([]).when(redeliver('ev-1', T0)).thenThrows(refused('webhook_event_unknown'));
      webhooks
        .given([queued('ev-1')])
        .when(redeliver('ev-9', T0))
        .thenThrows(refused('webhook_event_unknown'));
    });

    it('an event still queued, not tried yet (also a pass already redelivered)', () => {
      webhooks
        .given([queued('ev-1')])
        .when(redeliver('ev-1', T0))
        .thenThrows(refused('webhook_delivery_pending'));
      webhooks
        .given([queued('ev-1'), delivered('ev-1', 1, T0), redeliveryRequested('ev-1', T0 + 1)])
        .when(redeliver('ev-1', T0 + 2))
        .thenThrows(refused('webhook_delivery_pending'));
    });
  });
});
