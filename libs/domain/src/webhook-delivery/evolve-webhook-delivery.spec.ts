import { evolveWebhookDelivery } from './evolve-webhook-delivery';
import { initialWebhookDeliveryState } from './webhook-delivery.state';
import {
  ATTEMPT_ID,
  attempted,
  delivered,
  fold,
  PARTNER_ID,
  queued,
  redeliveryRequested,
  T0,
} from './webhook-delivery.fixture';

describe('evolveWebhookDelivery', () => {
  it('opens the queue with the first WebhookQueued, for its attempt and partner', () => {
    expect(fold([queued('ev-1')])).toEqual({
      status: 'active',
      attemptId: ATTEMPT_ID,
      partnerId: PARTNER_ID,
      entries: [
        {
          eventId: 'ev-1',
          event: 'wallet_submitted',
          lifecycleRevision: 3,
          occurredAt: T0 - 2_000,
          status: 'queued',
          attempts: 0,
          nextAttemptAt: null,
          lastError: null,
          lastStatus: null,
          deliveries: 0,
          firstTryAt: null,
          lastTryAt: null,
          requestedAt: [],
          compacted: false,
        },
      ],
      lastActivityAt: T0,
      changedSinceCompaction: true,
    });
  });

  it('ignores anything before the queue exists', () => {
    expect(evolveWebhookDelivery(initialWebhookDeliveryState, delivered('ev-1', 1, T0))).toBe(
      initialWebhookDeliveryState,
    );
  });

  it('keeps one entry per eventId and ignores events about unknown ids', () => {
    const state = fold([queued('ev-1')]);
    expect(fold([queued('ev-1'), queued('ev-1'), attempted('ev-9', 1, T0, T0 + 1)])).toEqual(state);
    expect(fold([queued('ev-1'), redeliveryRequested('ev-9', T0)])).toEqual(state);
  });

  it('clears the last error when a retried event is delivered', () => {
    const state = fold([
      queued('ev-1'),
      attempted('ev-1', 1, T0, T0 + 5_000),
      delivered('ev-1', 2, T0 + 5_000),
    ]);
    expect(state).toMatchObject({
      entries: [{ status: 'delivered', attempts: 2, nextAttemptAt: null, lastError: null, lastStatus: 200 }],
    });
  });

  it('counts the tries of every pass, with when the first and the last ended', () => {
    const state = fold([
      queued('ev-1'),
      attempted('ev-1', 1, T0, T0 + 5_000),
      delivered('ev-1', 2, T0 + 5_000),
      redeliveryRequested('ev-1', T0 + 6_000),
      delivered('ev-1', 1, T0 + 6_001),
    ]);
    expect(state).toMatchObject({
      entries: [{ status: 'delivered', attempts: 1, deliveries: 3, firstTryAt: T0, lastTryAt: T0 + 6_001 }],
    });
  });
});
