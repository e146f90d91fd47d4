import { deciderSpec } from '@svc/testing';
import { webhookEventHistories } from './webhook-event-history';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { webhookDeliveryDecider } from './webhook-delivery.decider';
import { attempted, delivered, fold, ok, queue, queued, record, T0 } from './webhook-delivery.fixture';

/** An event a newer build may append: a type this build does not know. */
const futureThing = { type: 'FutureThing', data: {} } as unknown as WebhookDeliveryEvent;
const delivery = deciderSpec(webhookDeliveryDecider);

describe('the webhook delivery fold over an event type it does not know (a newer build wrote it)', () => {
  it('leaves the queue as it was: [WebhookQueued, FutureThing] folds as [WebhookQueued]', () => {
    expect(fold([queued('ev-1'), futureThing])).toEqual(fold([queued('ev-1')]));
  });

  it('leaves it as it was anywhere in the stream, before the queue exists included', () => {
    expect(fold([futureThing])).toEqual(webhookDeliveryDecider.initialState);
    const story = [queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5_000), delivered('ev-1', 2, T0 + 5_000)];
    expect(fold([futureThing, ...story.flatMap((e) => [e, futureThing])])).toEqual(fold(story));
  });

  it('decides the next command as if it were not there', () => {
    const command = record('ev-1', T0 + 1_000, ok());
    const without = webhookDeliveryDecider.decide(command, fold([queued('ev-1')]));
    expect(without).not.toEqual([]);
    delivery
      .given([queued('ev-1'), futureThing])
      .when(command)
      .then(without);
    delivery
      .given([futureThing, queued('ev-1')])
      .when(queue('ev-2'))
      .then(webhookDeliveryDecider.decide(queue('ev-2'), fold([queued('ev-1')])));
  });

  it("lists the attempt's webhook histories as if it were not there", () => {
    const story = [queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5_000), delivered('ev-1', 2, T0 + 5_000)];
    expect(webhookEventHistories([story[0], futureThing, story[1], futureThing, story[2]])).toEqual(
      webhookEventHistories(story),
    );
  });
});

describe('which stored webhook delivery events the fold takes (knownEventTypes, isEvent)', () => {
  const story = [queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5_000), delivered('ev-1', 2, T0 + 5_000)];

  it('takes every event the queue appends, and knows no other type', () => {
    expect(story.every((e) => webhookDeliveryDecider.isEvent?.(e))).toBe(true);
    expect(webhookDeliveryDecider.knownEventTypes?.has('FutureThing')).toBe(false);
  });

  it.each([null, 'queued', [1]])('refuses a known type whose data is %p', (data) => {
    expect(webhookDeliveryDecider.isEvent?.({ type: 'WebhookQueued', data })).toBe(false);
  });
});
