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
        deliveryCount: 3,
        deliveriesOmitted: 0,
        historyCompacted: false,
        firstDeliveryAt: T0,
        lastDeliveryAt: T0 + 6_001,
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

describe('webhookEventHistories of a long stream (security review N-L8)', () => {
  /** ev-1 redelivered and failing again and again: 5 000 tries in passes of 8, each pass asked for by a redelivery. */
  function longStream(tries: number): WebhookDeliveryEvent[] {
    const events: WebhookDeliveryEvent[] = [queued('ev-1')];
    for (let n = 0; n < tries; n++) {
      const attempt = (n % 8) + 1;
      const at = T0 + n * 1_000;
      if (attempt === 8) {
        events.push(abandoned('ev-1', 8, at, 'retries exhausted', 500));
        if (n + 1 < tries) events.push(redeliveryRequested('ev-1', at + 1));
      } else events.push(attempted('ev-1', attempt, at, at + 500, 500));
    }
    return events;
  }

  it('shows the last 20 tries of an event with 5 000, says how many there are, and is linear', () => {
    const events = longStream(5_000);
    const started = performance.now();
    const [history] = webhookEventHistories(events);
    const elapsedMs = performance.now() - started;
    process.stdout.write(
      `webhookEventHistories: ${events.length} events, 5 000 tries in ${elapsedMs.toFixed(1)} ms\n`,
    );

    expect(history.deliveries).toHaveLength(20);
    expect(history.deliveries[0]).toMatchObject({ at: T0 + 4_980 * 1_000 });
    expect(history.deliveries.at(-1)).toMatchObject({ at: T0 + 4_999 * 1_000 });
    expect(history).toMatchObject({
      deliveryCount: 5_000,
      deliveriesOmitted: 4_980,
    });
    expect(history).toMatchObject({ firstDeliveryAt: T0, lastDeliveryAt: T0 + 4_999 * 1_000 });
    // Generous: linear work takes a few ms; the quadratic copy took far longer.
    expect(elapsedMs).toBeLessThan(250);
  });
});
