import { deciderSpec } from '@svc/testing';
import {
  ATTEMPT_ID,
  delivered,
  PARTNER_ID,
  queue,
  queued,
  redeliveryRequested,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const refused = (code: string) => expect.objectContaining({ name: 'WebhookDeliveryRefusedError', code });

describe('QueueWebhook', () => {
  it('queues the first lifecycle event of an attempt, stamped with now', () => {
    webhooks
      .given([])
      .when(queue('ev-1', T0 + 7))
      .then([
        {
          type: 'WebhookQueued',
          data: {
            eventId: 'ev-1',
            event: 'wallet_submitted',
            attemptId: ATTEMPT_ID,
            partnerId: PARTNER_ID,
            lifecycleRevision: 3,
            occurredAt: T0 - 2_000,
            queuedAt: T0 + 7,
          },
        },
      ]);
  });

  it('queues a later event behind the first', () => {
    webhooks
      .given([queued('ev-1')])
      .when(queue('ev-2', T0 + 1))
      .then([queued('ev-2', T0 + 1)]);
  });

  it('queues an eventId once: the relay delivering it again is nothing new', () => {
    webhooks
      .given([queued('ev-1')])
      .when(queue('ev-1', T0 + 1))
      .then([]);
  });

  it('is nothing new either once the event was delivered or redelivered', () => {
    webhooks
      .given([queued('ev-1'), delivered('ev-1', 1, T0 + 1)])
      .when(queue('ev-1', T0 + 2))
      .then([]);
    webhooks
      .given([queued('ev-1'), delivered('ev-1', 1, T0 + 1), redeliveryRequested('ev-1', T0 + 2)])
      .when(queue('ev-1', T0 + 3))
      .then([]);
  });

  it('refuses an event of another attempt: the relay routed it to the wrong stream', () => {
    webhooks
      .given([queued('ev-1')])
      .when(queue('ev-2', T0 + 1, 'at_2'))
      .thenThrows(refused('webhook_stream_mismatch'));
  });
});
