import { type AttemptEvent } from './attempt.events';
import { type AttemptRecord } from './attempt-record';
import { attemptDecider } from './attempt.decider';
import { attemptSnapshot } from './attempt-snapshot';
import {
  hash,
  legPending,
  legSettled,
  providerPending,
  submittedWithSignature,
  T0,
  TRACKING_LIMIT,
} from './attempt.fixture';

const names = { chainName: (chainId: number) => `chain-${chainId}` };
const snapshotOf = (events: AttemptEvent[]) =>
  attemptSnapshot(events.reduce(attemptDecider.evolve, attemptDecider.initialState) as AttemptRecord, names);
const legs = (events: AttemptEvent[]) => snapshotOf(events).perChainStatus.flatMap((c) => c.legs);

/** issue 24 item 2: the snapshot says which leg is still owed after the tracking limit, and until when. */
describe('snapshot: a leg owed past the tracking limit', () => {
  const limit = T0 + TRACKING_LIMIT;
  const until = limit + 7 * 3_600_000;
  const history: AttemptEvent[] = [
    ...submittedWithSignature,
    legSettled('s-eth', '1000000000', T0 + 5),
    providerPending(T0 + 5),
    legSettled('s-base', '50000000', T0 + 6),
    legPending('s-arb', T0 + 7, 'expired'),
  ];

  it('the owed leg shows followedUntil; the attempt is still provider_pending, the other legs show nothing new', () => {
    const snapshot = snapshotOf([
      ...history,
      { type: 'LegOwed', data: { sliceId: 's-arb', until, at: limit } },
    ]);
    expect(snapshot.status).toBe('provider_pending');
    const shown = legs([...history, { type: 'LegOwed', data: { sliceId: 's-arb', until, at: limit } }]);
    expect(shown.find((l) => l.legIndex === 1)).toMatchObject({
      status: 'pending',
      followedUntil: new Date(until).toISOString(),
    });
    expect(shown.filter((l) => l.legIndex !== 1).every((l) => !('followedUntil' in l))).toBe(true);
  });

  it('kept once the owed leg ends refunded, beside its refund', () => {
    const refund = {
      chainId: 42161,
      token: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
      amount: '250000000',
      amountBasis: 'exact' as const,
      txHash: hash(77),
      to: '0x00000000000000000000000000000000000000aa',
    };
    const shown = legs([
      ...history,
      { type: 'LegOwed', data: { sliceId: 's-arb', until, at: limit } },
      {
        type: 'LegFailed',
        data: {
          sliceId: 's-arb',
          errorCode: 'refunded',
          errorMessage: 'expired',
          refundTxHash: hash(77),
          refund,
          at: limit + 3_600_000,
        },
      },
    ]);
    expect(shown.find((l) => l.legIndex === 1)).toMatchObject({
      status: 'failed',
      errorCode: 'refunded',
      refund,
      followedUntil: new Date(until).toISOString(),
    });
  });

  it('a stream without LegOwed (an earlier build) shows no followedUntil', () => {
    expect(legs(history).every((l) => !('followedUntil' in l))).toBe(true);
  });
});
