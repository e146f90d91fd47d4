import { deliveryStats } from './delivery-stats';
import { abandoned, attempted, delivered, fold, queued, T0 } from './webhook-delivery.fixture';

describe('deliveryStats', () => {
  it('is all zero for an empty stream', () => {
    expect(deliveryStats(fold([]))).toEqual({
      total: 0,
      counts: { queued: 0, retrying: 0, delivered: 0, abandoned: 0 },
      failing: [],
    });
  });

  it('counts entries by status and lists the failing ones with their last error, in queue order', () => {
    const state = fold([
      queued('ev-1'),
      queued('ev-2'),
      queued('ev-3'),
      attempted('ev-1', 1, T0, T0 + 5_000, null, 'timeout'),
      abandoned('ev-1', 2, T0 + 5_000, 'gone: the callback URL answered 410', 410),
      attempted('ev-2', 1, T0 + 5_001, T0 + 10_001, 502, 'HTTP 502'),
    ]);
    expect(deliveryStats(state)).toEqual({
      total: 3,
      counts: { queued: 1, retrying: 1, delivered: 0, abandoned: 1 },
      failing: [
        {
          eventId: 'ev-1',
          event: 'wallet_submitted',
          status: 'abandoned',
          attempts: 2,
          nextAttemptAt: null,
          lastError: 'gone: the callback URL answered 410',
          lastStatus: 410,
        },
        {
          eventId: 'ev-2',
          event: 'settled',
          status: 'retrying',
          attempts: 1,
          nextAttemptAt: T0 + 10_001,
          lastError: 'HTTP 502',
          lastStatus: 502,
        },
      ],
    });
  });

  it('does not list an event delivered after failed tries', () => {
    const state = fold([
      queued('ev-1'),
      attempted('ev-1', 1, T0, T0 + 5_000),
      delivered('ev-1', 2, T0 + 5_000),
    ]);
    expect(deliveryStats(state)).toMatchObject({
      counts: { queued: 0, retrying: 0, delivered: 1, abandoned: 0 },
      failing: [],
    });
  });
});
