import { type AttemptEvent, attemptDecider, type AttemptRecord } from '@svc/domain';
import { trackingDueAt } from './verify-all';

const T0 = 1_000_000;
const LIMIT = 7_200_000;
const slice = (sliceId: string, provider: string) => ({
  sliceId,
  sourceIndex: 0,
  sourceChainId: 1,
  noop: false,
  provider,
  providerRequestId: null,
  trackingContext: null,
  expectedOutputRaw: '1',
  minimumOutputRaw: '1',
});
const prepared = {
  type: 'AttemptPrepared',
  data: {
    attemptId: 'a',
    intentSessionId: 'is',
    partnerId: 'p',
    idempotencyKey: null,
    wallet: '0x00000000000000000000000000000000000000aa',
    recipient: '0x00000000000000000000000000000000000000bb',
    preparedAt: T0,
    expiresAt: T0 + 30_000,
    evidenceDeadlineAt: T0 + 60_000,
    chainActions: [],
    walletAuthorization: {},
    legs: [
      {
        legIndex: 0,
        targetId: 't',
        provider: 'across',
        target: {
          chainId: 8453,
          address: '0x00000000000000000000000000000000000000cc',
          symbol: 'USDC',
          decimals: 6,
        },
        slices: [slice('s-1', 'across'), slice('s-2', 'relay')],
      },
    ],
    walletContext: null,
  },
} as unknown as AttemptEvent;
const fold = (events: AttemptEvent[]) =>
  [prepared, ...events].reduce(attemptDecider.evolve, attemptDecider.initialState) as AttemptRecord;
const owed = (sliceId: string, until: number): AttemptEvent => ({
  type: 'LegOwed',
  data: { sliceId, until, at: T0 + LIMIT },
});
const settled = (sliceId: string): AttemptEvent => ({
  type: 'LegSettled',
  data: { sliceId, destinationTxHash: null, settledAmount: '1', amountBasis: 'exact', at: T0 + 1 },
});

describe('audit: when an open attempt is overdue (issue 24 item 2)', () => {
  it('at the tracking limit, as before, while any open leg is not owed', () => {
    expect(trackingDueAt(fold([]), LIMIT)).toBe(T0 + LIMIT);
    expect(trackingDueAt(fold([owed('s-1', T0 + 9 * LIMIT)]), LIMIT)).toBe(T0 + LIMIT);
  });

  it('a late Across refund being waited for is not overdue: due when the owed leg ends', () => {
    expect(trackingDueAt(fold([settled('s-2'), owed('s-1', T0 + 5 * LIMIT)]), LIMIT)).toBe(T0 + 5 * LIMIT);
    expect(trackingDueAt(fold([owed('s-1', T0 + 5 * LIMIT), owed('s-2', T0 + 3 * LIMIT)]), LIMIT)).toBe(
      T0 + 3 * LIMIT,
    );
  });
});
