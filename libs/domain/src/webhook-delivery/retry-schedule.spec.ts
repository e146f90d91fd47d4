import { deciderSpec } from '@svc/testing';
import { MAX_DELIVERY_TRIES, retryDelayMs } from './retry-schedule';
import { WebhookDeliveryInputError } from './webhook-delivery-input.error';
import { attempted, failed, queued, record, T0, webhookDeliveryUnderTest } from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const S = 1_000;
const H = 3_600 * S;

describe('retry schedule', () => {
  it('has eight tries: the first and seven retries', () => {
    expect(MAX_DELIVERY_TRIES).toBe(8);
  });

  it('is exact with random = 0.5 (no jitter)', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, 0.5))).toEqual([
      5 * S,
      300 * S,
      1_800 * S,
      2 * H,
      5 * H,
      10 * H,
      10 * H,
    ]);
  });

  it('jitters by ±10 %: random 0 gives 90 %, random 0.999 just under 110 %', () => {
    expect(retryDelayMs(1, 0)).toBe(4_500);
    expect(retryDelayMs(1, 0.999)).toBe(5_499);
    expect(retryDelayMs(7, 0)).toBe(32_400_000);
    expect(retryDelayMs(7, 0.999)).toBe(39_592_800);
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const delay = retryDelayMs(n, 0.5);
      expect(retryDelayMs(n, 0)).toBeGreaterThanOrEqual(Math.round(delay * 0.9));
      expect(retryDelayMs(n, 0.999)).toBeLessThan(delay * 1.1);
    }
  });

  it('applies the jitter bounds to the scheduled retry', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(), 0))
      .then([attempted('ev-1', 1, T0, T0 + 4_500)]);
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(), 0.999))
      .then([attempted('ev-1', 1, T0, T0 + 5_499)]);
  });

  it('lets Retry-After win over the jittered delay only when it is longer', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(503, 4_800), 0))
      .then([attempted('ev-1', 1, T0, T0 + 4_800)]);
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(503, 4_800), 0.999))
      .then([attempted('ev-1', 1, T0, T0 + 5_499)]);
  });

  it('has no delay after the last try', () => {
    expect(() => retryDelayMs(8, 0.5)).toThrow(WebhookDeliveryInputError);
    expect(() => retryDelayMs(0, 0.5)).toThrow(WebhookDeliveryInputError);
  });
});
