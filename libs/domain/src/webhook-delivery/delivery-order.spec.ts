import { deciderSpec } from '@svc/testing';
import { nextDue } from './next-due';
import {
  abandoned,
  attempted,
  delivered,
  failed,
  fold,
  ok,
  queued,
  record,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const refused = (code: string) => expect.objectContaining({ name: 'WebhookDeliveryRefusedError', code });
const due = (eventId: string, attempt: number) => expect.objectContaining({ eventId, attempt });

describe('nextDue', () => {
  it('is null for an empty queue', () => {
    expect(nextDue(fold([]), T0)).toBeNull();
  });

  it('offers a queued head at once, as its first try, with what the payload needs', () => {
    expect(nextDue(fold([queued('ev-1')]), T0)).toEqual({
      eventId: 'ev-1',
      event: 'wallet_submitted',
      lifecycleRevision: 3,
      occurredAt: T0 - 2_000,
      attempt: 1,
    });
  });

  it('offers a retrying head from its nextAttemptAt, as the next try', () => {
    const state = fold([queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5_000)]);
    expect(nextDue(state, T0 + 4_999)).toBeNull();
    expect(nextDue(state, T0 + 5_000)).toEqual(due('ev-1', 2));
  });

  it('is null once every event was delivered or abandoned', () => {
    const state = fold([
      queued('ev-1'),
      queued('ev-2'),
      delivered('ev-1', 1, T0),
      abandoned('ev-2', 1, T0, 'gone', 410),
    ]);
    expect(nextDue(state, T0 + 1)).toBeNull();
  });
});

describe('per-attempt order', () => {
  const headFailing = [queued('ev-1'), queued('ev-2'), attempted('ev-1', 1, T0, T0 + 5_000)];

  it('keeps the second event waiting while the head is retrying', () => {
    expect(nextDue(fold(headFailing), T0 + 1)).toBeNull();
    expect(nextDue(fold(headFailing), T0 + 5_000)).toEqual(due('ev-1', 2));
    webhooks
      .given(headFailing)
      .when(record('ev-2', T0 + 1, ok()))
      .thenThrows(refused('webhook_not_head'));
  });

  it('releases the second event when the head is delivered', () => {
    const history = [...headFailing, delivered('ev-1', 2, T0 + 5_000)];
    expect(nextDue(fold(history), T0 + 5_000)).toEqual(due('ev-2', 1));
    webhooks
      .given(history)
      .when(record('ev-2', T0 + 5_001, ok()))
      .then([delivered('ev-2', 1, T0 + 5_001)]);
  });

  it('releases the second event when the head is abandoned', () => {
    const history = [...headFailing, abandoned('ev-1', 2, T0 + 5_000, 'gone', 410)];
    expect(nextDue(fold(history), T0 + 5_000)).toEqual(due('ev-2', 1));
    webhooks
      .given(history)
      .when(record('ev-2', T0 + 5_001, failed()))
      .then([attempted('ev-2', 1, T0 + 5_001, T0 + 10_001)]);
  });

  it('releases events in queued order, one at a time', () => {
    const state = fold([queued('ev-1'), queued('ev-2'), queued('ev-3'), delivered('ev-1', 1, T0)]);
    expect(nextDue(state, T0)).toEqual(due('ev-2', 1));
    webhooks
      .given([queued('ev-1'), queued('ev-2'), queued('ev-3'), delivered('ev-1', 1, T0)])
      .when(record('ev-3', T0, ok()))
      .thenThrows(refused('webhook_not_head'));
  });
});
