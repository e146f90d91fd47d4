import { WEBHOOK_CONTROL_LIMITS } from '@svc/contract';
import { deciderSpec } from '@svc/testing';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import {
  attempted,
  delivered,
  queued,
  recoverCapped,
  redeliver,
  redeliverCapped,
  redeliveryRequested,
  retryRequested,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const CAP = WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour;
const HOUR = 3_600_000;
const limited = (retryAt: number) =>
  expect.objectContaining({
    name: 'WebhookDeliveryRefusedError',
    code: 'webhook_redelivery_rate_limited',
    retryAt,
  });

/** ev-1 delivered, then sent again `times` times, a minute apart from T0, each new pass delivered at once. */
function redeliveredTimes(times: number, eventId = 'ev-1'): WebhookDeliveryEvent[] {
  const events: WebhookDeliveryEvent[] = [delivered(eventId, 1, T0 - 1)];
  for (let n = 0; n < times; n++) {
    const at = T0 + n * 60_000;
    events.push(redeliveryRequested(eventId, at), delivered(eventId, 1, at + 10));
  }
  return events;
}

// Security review N-L8: every redelivery adds a pass of up to 8 tries to the stream, so the partner's control plane
// may ask for at most CAP per event in any hour, decided from the stream's own events (the same on every replica).
describe(`redeliveries are capped at ${CAP} per event per hour`, () => {
  const history = [queued('ev-1'), ...redeliveredTimes(CAP)];

  it(`refuses the ${CAP + 1}th within the hour, saying when the next is allowed`, () => {
    webhooks
      .given(history)
      .when(redeliverCapped('ev-1', T0 + 30 * 60_000))
      .thenThrows(limited(T0 + HOUR));
  });

  it('allows it again once the oldest of them is an hour old', () => {
    webhooks
      .given(history)
      .when(redeliverCapped('ev-1', T0 + HOUR))
      .then([redeliveryRequested('ev-1', T0 + HOUR, 'partner')]);
  });

  it('allows up to the cap', () => {
    webhooks
      .given([queued('ev-1'), ...redeliveredTimes(CAP - 1)])
      .when(redeliverCapped('ev-1', T0 + 30 * 60_000))
      .then([redeliveryRequested('ev-1', T0 + 30 * 60_000, 'partner')]);
  });

  it('counts per event: another event of the attempt is not held back', () => {
    webhooks
      .given([queued('ev-1'), queued('ev-2'), delivered('ev-2', 1, T0 - 1), ...redeliveredTimes(CAP)])
      .when(redeliverCapped('ev-2', T0 + 30 * 60_000))
      .then([redeliveryRequested('ev-2', T0 + 30 * 60_000, 'partner')]);
  });

  it('does not cap an operator (the CLI asks uncapped)', () => {
    webhooks
      .given(history)
      .when(redeliver('ev-1', T0 + 30 * 60_000))
      .then([redeliveryRequested('ev-1', T0 + 30 * 60_000)]);
  });

  describe('a retry brought forward counts as one', () => {
    const retrying = [queued('ev-1'), attempted('ev-1', 1, T0 - 1, T0 + 10 * HOUR)];
    const asked = Array.from({ length: CAP }, (_, n) => [
      retryRequested('ev-1', T0 + n * 60_000),
      attempted('ev-1', n + 2, T0 + n * 60_000 + 10, T0 + 10 * HOUR),
    ]).flat();

    it('refused at the cap', () => {
      webhooks
        .given([...retrying, ...asked])
        .when(redeliverCapped('ev-1', T0 + 20 * 60_000))
        .thenThrows(limited(T0 + HOUR));
    });

    it('nothing to refuse when the retry is due anyway', () => {
      webhooks
        .given([...retrying, ...asked])
        .when(redeliverCapped('ev-1', T0 + 10 * HOUR))
        .then([]);
    });
  });

  it('a recovery counts, and leaves out an event at the cap while sending the others', () => {
    webhooks
      .given([queued('ev-1'), queued('ev-2'), delivered('ev-2', 1, T0 - 1), ...redeliveredTimes(CAP)])
      .when(recoverCapped(T0 - 10_000, T0, T0 + 30 * 60_000, 'partner:r1'))
      .then([redeliveryRequested('ev-2', T0 + 30 * 60_000, 'partner:r1')]);
    webhooks
      .given([queued('ev-1'), ...redeliveredTimes(CAP - 1)])
      .when(recoverCapped(T0 - 10_000, T0, T0 + 30 * 60_000, 'partner:r1'))
      .then([redeliveryRequested('ev-1', T0 + 30 * 60_000, 'partner:r1')]);
  });
});
