import { deciderSpec } from '@svc/testing';
import { type WebhookStreamEvent } from './webhook-delivery.events';
import { webhookEventHistories } from './webhook-event-history';
import {
  abandoned,
  ATTEMPT_ID,
  attempted,
  compact,
  delivered,
  fold,
  PARTNER_ID,
  queue,
  queued,
  redeliver,
  redeliveryRequested,
  RETENTION_MS,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const LATER = T0 + RETENTION_MS + 60_000;

/** ev-1 failed once then delivered, ev-2 abandoned (410): both ended, the newest event at T0 + 5_001. */
const ended = [
  queued('ev-1'),
  queued('ev-2'),
  attempted('ev-1', 1, T0, T0 + 5_000, null, 'timeout'),
  delivered('ev-1', 2, T0 + 5_000),
  abandoned('ev-2', 1, T0 + 5_001, 'gone', 410),
];

const summary: WebhookStreamEvent = {
  type: 'WebhookHistoryCompacted',
  data: {
    attemptId: ATTEMPT_ID,
    partnerId: PARTNER_ID,
    at: LATER,
    lastActivityAt: T0 + 5_001,
    events: [
      {
        eventId: 'ev-1',
        event: 'wallet_submitted',
        lifecycleRevision: 3,
        occurredAt: T0 - 2_000,
        status: 'delivered',
        attempts: 2,
        lastError: null,
        lastStatus: 200,
        deliveries: 2,
        firstTryAt: T0,
        lastTryAt: T0 + 5_000,
        queuedPosition: '17',
      },
      {
        eventId: 'ev-2',
        event: 'settled',
        lifecycleRevision: 9,
        occurredAt: T0 - 1_000,
        status: 'abandoned',
        attempts: 1,
        lastError: 'gone',
        lastStatus: 410,
        deliveries: 1,
        firstTryAt: T0 + 5_001,
        lastTryAt: T0 + 5_001,
        queuedPosition: '18',
      },
    ],
  },
};

describe('CompactWebhookHistory', () => {
  it('summarises a stream whose events all ended, once its newest event is older than the retention', () => {
    webhooks
      .given(ended)
      .when(compact(LATER, { 'ev-1': '17', 'ev-2': '18' }))
      .then([summary]);
  });

  describe('leaves alone', () => {
    it('a stream whose newest event is within the retention', () => {
      webhooks
        .given(ended)
        .when(compact(T0 + 5_001 + RETENTION_MS - 1))
        .then([]);
    });

    it('a stream with an event still queued or retrying, however old', () => {
      webhooks
        .given([queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5_000)])
        .when(compact(LATER))
        .then([]);
      webhooks
        .given([queued('ev-1'), delivered('ev-1', 1, T0), queued('ev-2')])
        .when(compact(LATER))
        .then([]);
    });

    it('a stream where nothing happened since its last summary (a second run, a second instance)', () => {
      webhooks
        .given([...ended, summary])
        .when(compact(LATER + RETENTION_MS))
        .then([]);
      webhooks
        .given([summary])
        .when(compact(LATER + RETENTION_MS))
        .then([]);
    });

    it('an empty stream', () => {
      webhooks.given([]).when(compact(LATER)).then([]);
    });
  });

  it('refuses a retention shorter than 30 days', () => {
    webhooks
      .given(ended)
      .when(compact(LATER, {}, RETENTION_MS - 1))
      .thenThrows(expect.objectContaining({ name: 'WebhookDeliveryInputError' }));
  });

  describe('the stream truncated before its summary', () => {
    it('folds to the queue the whole stream stood for: nothing to send, the same entries and counts', () => {
      expect(fold([summary])).toEqual(fold([...ended, summary]));
      expect(fold([summary])).toMatchObject({
        entries: [
          { eventId: 'ev-1', status: 'delivered', deliveries: 2, compacted: true },
          { eventId: 'ev-2', status: 'abandoned', deliveries: 1, compacted: true },
        ],
      });
    });

    it('queues nothing twice: the relay handing over a compacted event again appends nothing', () => {
      webhooks.given([summary]).when(queue('ev-1', LATER)).then([]);
      webhooks
        .given([summary])
        .when(queue('ev-3', LATER))
        .then([
          {
            type: 'WebhookQueued',
            data: {
              eventId: 'ev-3',
              event: 'failed',
              lifecycleRevision: 12,
              occurredAt: T0 - 500,
              attemptId: ATTEMPT_ID,
              partnerId: PARTNER_ID,
              queuedAt: LATER,
            },
          },
        ]);
    });

    it('still sends a compacted event again (its body is built from the attempt stream, never truncated)', () => {
      webhooks
        .given([summary])
        .when(redeliver('ev-2', LATER))
        .then([redeliveryRequested('ev-2', LATER)]);
    });

    it('lists each event with its counts, no tries before the summary, and the tries since', () => {
      const [first, second] = webhookEventHistories([
        summary,
        redeliveryRequested('ev-2', LATER),
        delivered('ev-2', 1, LATER + 10),
      ]);
      expect(first).toMatchObject({
        eventId: 'ev-1',
        status: 'delivered',
        deliveries: [],
        deliveryCount: 2,
        deliveriesOmitted: 2,
        historyCompacted: true,
        firstDeliveryAt: T0,
        lastDeliveryAt: T0 + 5_000,
      });
      expect(second).toMatchObject({
        eventId: 'ev-2',
        status: 'delivered',
        deliveries: [{ at: LATER + 10, statusCode: 200, latencyMs: null, outcome: 'delivered' }],
        deliveryCount: 2,
        deliveriesOmitted: 1,
        historyCompacted: true,
        firstDeliveryAt: T0 + 5_001,
        lastDeliveryAt: LATER + 10,
      });
    });

    it('is summarised again after a new pass, its counts carried on', () => {
      const afterPass = [summary, redeliveryRequested('ev-2', LATER), delivered('ev-2', 1, LATER + 10)];
      webhooks
        .given(afterPass)
        .when(compact(LATER + 10 + RETENTION_MS, { 'ev-1': '17', 'ev-2': '18' }))
        .then([
          {
            type: 'WebhookHistoryCompacted',
            data: {
              ...summary.data,
              at: LATER + 10 + RETENTION_MS,
              lastActivityAt: LATER + 10,
              events: [
                summary.data.events[0],
                {
                  ...summary.data.events[1],
                  status: 'delivered',
                  attempts: 1,
                  lastError: null,
                  lastStatus: 200,
                  deliveries: 2,
                  lastTryAt: LATER + 10,
                },
              ],
            },
          },
        ]);
    });
  });
});
