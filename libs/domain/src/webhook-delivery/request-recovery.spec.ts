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
  recover,
  redeliveryRequested,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);

// The fixture's events occurred at: ev-1 T0 - 2000 (revision 3), ev-2 T0 - 1000 (revision 9), ev-3 T0 - 500 (12).
describe('RequestRecovery', () => {
  it('sends every ended event of the range again, in lifecycle order', () => {
    webhooks
      .given([
        queued('ev-1'),
        queued('ev-2'),
        delivered('ev-1', 1, T0),
        abandoned('ev-2', 1, T0 + 1, 'gone', 410),
      ])
      .when(recover(T0 - 10_000, T0, T0 + 60_000, 'partner:r1'))
      .then([
        redeliveryRequested('ev-1', T0 + 60_000, 'partner:r1'),
        redeliveryRequested('ev-2', T0 + 60_000, 'partner:r1'),
      ]);
  });

  it('keeps the original order even after a redelivery moved an event to the end of the queue', () => {
    const history = [
      queued('ev-1'),
      queued('ev-2'),
      delivered('ev-1', 1, T0),
      delivered('ev-2', 1, T0 + 1),
      redeliveryRequested('ev-1', T0 + 2),
      delivered('ev-1', 1, T0 + 3),
    ];
    expect(fold(history)).toMatchObject({ entries: [{ eventId: 'ev-2' }, { eventId: 'ev-1' }] });
    webhooks
      .given(history)
      .when(recover(0, T0, T0 + 4, 'p'))
      .then([redeliveryRequested('ev-1', T0 + 4, 'p'), redeliveryRequested('ev-2', T0 + 4, 'p')]);
    const recovered = [
      ...history,
      redeliveryRequested('ev-1', T0 + 4, 'p'),
      redeliveryRequested('ev-2', T0 + 4, 'p'),
    ];
    expect(nextDue(fold(recovered), T0 + 4)).toMatchObject({ eventId: 'ev-1' });
    webhooks
      .given(recovered)
      .when(record('ev-2', T0 + 5, ok()))
      .thenThrows(expect.objectContaining({ code: 'webhook_not_head' }));
  });

  it('takes [from, to): an event at `to` is outside', () => {
    webhooks
      .given([queued('ev-1'), queued('ev-2'), delivered('ev-1', 1, T0), delivered('ev-2', 1, T0)])
      .when(recover(T0 - 2_000, T0 - 1_000, T0 + 1, 'p'))
      .then([redeliveryRequested('ev-1', T0 + 1, 'p')]);
  });

  it('leaves pending events to their own pass, and changes nothing when none ended in the range', () => {
    webhooks
      .given([queued('ev-1'), queued('ev-2'), delivered('ev-1', 1, T0), attempted('ev-2', 1, T0, T0 + 5_000)])
      .when(recover(0, T0, T0 + 1, 'p'))
      .then([redeliveryRequested('ev-1', T0 + 1, 'p')]);
    webhooks
      .given([queued('ev-1'), delivered('ev-1', 1, T0)])
      .when(recover(T0, T0 + 10_000, T0 + 1, 'p'))
      .then([]);
    webhooks
      .given([])
      .when(recover(0, T0, T0, 'p'))
      .then([]);
  });
});
