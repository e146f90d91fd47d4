import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { webhookEventHistories } from './webhook-event-history';
import {
  abandoned,
  ATTEMPT_ID,
  attempted,
  delivered,
  PARTNER_ID,
  queued,
  redeliveryRequested,
  T0,
} from './webhook-delivery.fixture';

const withLatency = (event: WebhookDeliveryEvent, latencyMs: number): WebhookDeliveryEvent =>
  ({ ...event, data: { ...event.data, latencyMs } }) as WebhookDeliveryEvent;

describe('webhookEventHistories', () => {
  it('is empty for a stream without events', () => {
    expect(webhookEventHistories([])).toEqual([]);
  });

  it('lists each event once, in lifecycle order, with every try of every pass', () => {
    const histories = webhookEventHistories([
      queued('ev-1'),
      queued('ev-2'),
      withLatency(attempted('ev-1', 1, T0, T0 + 5_000, null, 'timeout'), 15_000),
      withLatency(delivered('ev-1', 2, T0 + 5_000), 12),
      withLatency(abandoned('ev-2', 1, T0 + 5_001, 'gone', 410), 7),
      redeliveryRequested('ev-1', T0 + 6_000),
      delivered('ev-1', 1, T0 + 6_001), // stored before latencies were
    ]);
    expect(histories).toEqual([
      {
        eventId: 'ev-1',
        event: 'wallet_submitted',
        attemptId: ATTEMPT_ID,
        partnerId: PARTNER_ID,
        lifecycleRevision: 3,
        occurredAt: T0 - 2_000,
        status: 'delivered',
        nextAttemptAt: null,
        deliveries: [
          { at: T0, statusCode: null, latencyMs: 15_000, outcome: 'failed' },
          { at: T0 + 5_000, statusCode: 200, latencyMs: 12, outcome: 'delivered' },
          { at: T0 + 6_001, statusCode: 200, latencyMs: null, outcome: 'delivered' },
        ],
      },
      expect.objectContaining({
        eventId: 'ev-2',
        status: 'abandoned',
        deliveries: [{ at: T0 + 5_001, statusCode: 410, latencyMs: 7, outcome: 'abandoned' }],
      }),
    ]);
  });

  it('shows a pending retry with its due time and no try for an event not tried yet', () => {
    const [first, second] = webhookEventHistories([
      queued('ev-1'),
      queued('ev-2'),
      attempted('ev-1', 1, T0, T0 + 5_000),
    ]);
    expect(first).toMatchObject({ status: 'retrying', nextAttemptAt: T0 + 5_000 });
    expect(first.deliveries).toEqual([{ at: T0, statusCode: 503, latencyMs: null, outcome: 'failed' }]);
    expect(second).toMatchObject({ status: 'queued', deliveries: [] });
  });
});
