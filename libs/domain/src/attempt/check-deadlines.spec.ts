import { deciderSpec } from '@svc/testing';
import { type AttemptEvent } from './attempt.events';
import { type AttemptRecord } from './attempt-record';
import {
  attemptUnderTest,
  attemptPrepared,
  checkDeadlines,
  EVIDENCE_DEADLINE,
  hash,
  legPending,
  legSettled,
  providerPending,
  submittedWithSignature,
  T0,
  TRACKING_LIMIT,
} from './attempt.fixture';

const attempt = deciderSpec(attemptUnderTest);
const limit = T0 + TRACKING_LIMIT;
const timedOut = (sliceId: string): AttemptEvent => ({
  type: 'LegFailed',
  data: {
    sliceId,
    errorCode: 'settlement_timeout',
    errorMessage: 'not settled within the tracking limit',
    refundTxHash: null,
    at: limit,
  },
});

describe('CheckDeadlines', () => {
  it('expires a prepared attempt without evidence at evidenceDeadlineAt, not before', () => {
    attempt
      .given([attemptPrepared])
      .when(checkDeadlines(EVIDENCE_DEADLINE - 1))
      .then([]);
    attempt
      .given([attemptPrepared])
      .when(checkDeadlines(EVIDENCE_DEADLINE))
      .then([{ type: 'AttemptExpired', data: { at: EVIDENCE_DEADLINE } }]);
  });

  it('an expiry after a search that found only an ambiguous transaction names it (ADR 0009)', () => {
    const ambiguousSources = [{ chainId: 1, txHash: hash(7) }];
    attempt
      .given([attemptPrepared])
      .when({
        type: 'CheckDeadlines',
        data: {
          now: EVIDENCE_DEADLINE,
          trackingLimitMs: TRACKING_LIMIT,
          depositFound: false,
          ambiguousSources,
        },
      })
      .then([{ type: 'AttemptExpired', data: { at: EVIDENCE_DEADLINE, ambiguousSources } }]);
  });

  it('does not expire it when the tracker found the deposit (command flag or a recorded observation)', () => {
    attempt.given([attemptPrepared]).when(checkDeadlines(EVIDENCE_DEADLINE, true)).then([]);
    attempt
      .given([attemptPrepared, legPending('s-eth', T0 + 1)])
      .when(checkDeadlines(EVIDENCE_DEADLINE))
      .then([]);
  });

  it('never expires an attempt that has evidence', () => {
    attempt
      .given(submittedWithSignature)
      .when(checkDeadlines(EVIDENCE_DEADLINE + 1))
      .then([]);
  });

  it('a leg whose quote said the route has no refund (Across irreversible_rail) says no refund will come (N15)', () => {
    const noRefund = submittedWithSignature.map((e) =>
      e.type !== 'AttemptPrepared'
        ? e
        : {
            ...e,
            data: {
              ...e.data,
              legs: e.data.legs.map((leg) => ({
                ...leg,
                slices: leg.slices.map((s) =>
                  s.sliceId === 's-arb'
                    ? {
                        ...s,
                        trackingContext: { ...s.trackingContext, refundUnsupported: 'irreversible_rail' },
                      }
                    : s,
                ),
              })),
            },
          },
    );
    const history = [...noRefund, legSettled('s-eth', '1', T0 + 5), providerPending(T0 + 5)];
    const noRefundMessage =
      "not settled within the tracking limit; no refund will come: the provider's quote said this route has none (irreversible_rail), the funds go through to the destination";
    attempt
      .given(history)
      .when(checkDeadlines(limit))
      .then([
        {
          type: 'LegFailed',
          data: {
            sliceId: 's-arb',
            errorCode: 'settlement_timeout',
            errorMessage: noRefundMessage,
            refundTxHash: null,
            at: limit,
          },
        },
        timedOut('s-base'),
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'settlement_timeout',
            errorMessage: 'not settled within the tracking limit',
            at: limit,
          },
        },
      ]);
  });

  it('fails every open slice, then the attempt, at the tracking limit', () => {
    const history = [...submittedWithSignature, legSettled('s-eth', '1', T0 + 5), providerPending(T0 + 5)];
    attempt
      .given(history)
      .when(checkDeadlines(limit - 1))
      .then([]);
    attempt
      .given(history)
      .when(checkDeadlines(limit))
      .then([
        timedOut('s-arb'),
        timedOut('s-base'),
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'settlement_timeout',
            errorMessage: 'not settled within the tracking limit',
            at: limit,
          },
        },
      ]);
  });

  it('fails a prepared attempt whose deposit was found but never reported by the tracking limit', () => {
    attempt
      .given([attemptPrepared])
      .when(checkDeadlines(limit, true))
      .then([
        timedOut('s-eth'),
        timedOut('s-arb'),
        timedOut('s-base'),
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'settlement_timeout',
            errorMessage: 'not settled within the tracking limit',
            at: limit,
          },
        },
      ]);
  });

  it('fails an attempt whose legs all settled but whose signature never came', () => {
    attempt
      .given([
        attemptPrepared,
        {
          type: 'EvidenceReported',
          data: { reportId: 'r1', reportedAt: T0, submittedAt: null, chainResults: [] },
        },
        { type: 'AttemptWalletSubmitted', data: { at: T0 } },
        legSettled('s-eth', '1', T0),
        providerPending(T0),
        legSettled('s-arb', '1', T0),
        legSettled('s-base', '1', T0),
      ])
      .when(checkDeadlines(limit))
      .then([
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'settlement_timeout',
            errorMessage: 'no wallet authorization signature was reported within the tracking limit',
            at: limit,
          },
        },
      ]);
  });

  it.each([
    ['settled', { type: 'AttemptSettled', data: { at: T0 } }],
    ['failed', { type: 'AttemptFailed', data: { errorCode: 'refunded', errorMessage: 'r', at: T0 } }],
    ['expired', { type: 'AttemptExpired', data: { at: T0 } }],
  ] as const)('ends nothing that already ended (%s)', (_name, ended) => {
    attempt
      .given([attemptPrepared, ended])
      .when(checkDeadlines(limit * 2))
      .then([]);
  });
});

/** issue 24 item 2: a leg whose provider can still fill or refund is followed past the tracking limit. */
describe('CheckDeadlines: per-provider leg deadlines', () => {
  // s-arb is an across leg whose deposit confirmed; across can refund it until its fillDeadline + the refund window.
  const owedUntil = limit + 4 * 3_600_000;
  const withDeadlines = (now: number, legDeadlines: Record<string, number>) => ({
    type: 'CheckDeadlines' as const,
    data: { now, trackingLimitMs: TRACKING_LIMIT, depositFound: false, legDeadlines },
  });
  const history: AttemptEvent[] = [
    ...submittedWithSignature,
    legSettled('s-eth', '1000000000', T0 + 5),
    providerPending(T0 + 5),
    legSettled('s-base', '50000000', T0 + 6),
    legPending('s-arb', T0 + 7, 'pending'),
  ];

  it('keeps an across leg open past the tracking limit, records it owed until its own deadline, and the attempt waits', () => {
    attempt
      .given(history)
      .when(withDeadlines(limit, { 's-arb': owedUntil }))
      .then([{ type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil, at: limit } }]);
  });

  it('records the owed leg once for one deadline, again when the deadline moves', () => {
    const owed: AttemptEvent = { type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil, at: limit } };
    attempt
      .given([...history, owed])
      .when(withDeadlines(limit + 60_000, { 's-arb': owedUntil }))
      .then([]);
    attempt
      .given([...history, owed])
      .when(withDeadlines(limit + 60_000, { 's-arb': owedUntil + 1000 }))
      .then([{ type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil + 1000, at: limit + 60_000 } }]);
  });

  it('a refund hours later ends the owed leg refunded with where the money went, and the attempt fails with it', () => {
    const refund = {
      chainId: 42161,
      token: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
      amount: '250000000',
      amountBasis: 'exact' as const,
      txHash: hash(77),
      to: '0x00000000000000000000000000000000000000aa',
    };
    const later = limit + 3 * 3_600_000;
    attempt
      .given([...history, { type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil, at: limit } }])
      .when({
        type: 'ObserveLeg',
        data: {
          sliceId: 's-arb',
          progress: { state: 'refunded', refundTxHash: hash(77), reason: 'expired, refunded', refund },
          now: later,
        },
      })
      .then([
        {
          type: 'LegFailed',
          data: {
            sliceId: 's-arb',
            errorCode: 'refunded',
            errorMessage: 'expired, refunded',
            refundTxHash: hash(77),
            refund,
            at: later,
          },
        },
        {
          type: 'AttemptFailed',
          data: { errorCode: 'refunded', errorMessage: 'expired, refunded', at: later },
        },
      ]);
  });

  it('times the owed leg out at its own deadline, not before', () => {
    const owed: AttemptEvent = { type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil, at: limit } };
    attempt
      .given([...history, owed])
      .when(withDeadlines(owedUntil - 1, { 's-arb': owedUntil }))
      .then([]);
    attempt
      .given([...history, owed])
      .when(withDeadlines(owedUntil, { 's-arb': owedUntil }))
      .then([
        { ...timedOut('s-arb'), data: { ...timedOut('s-arb').data, at: owedUntil } } as AttemptEvent,
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'settlement_timeout',
            errorMessage: 'not settled within the tracking limit',
            at: owedUntil,
          },
        },
      ]);
  });

  it('fails the legs past their deadline at the limit and keeps the owed one open', () => {
    attempt
      .given([...submittedWithSignature, legPending('s-arb', T0 + 7, 'pending')])
      .when(withDeadlines(limit, { 's-arb': owedUntil }))
      .then([
        timedOut('s-eth'),
        timedOut('s-base'),
        { type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil, at: limit } },
      ]);
  });

  it('never ends a leg before the tracking limit, whatever its deadline says', () => {
    attempt
      .given(history)
      .when(withDeadlines(limit - 1, { 's-arb': T0 }))
      .then([]);
  });

  it('folds the owed deadline and the deposit fill deadline onto the leg; stored events without them still fold', () => {
    const fold = (events: AttemptEvent[]) =>
      events.reduce(attemptUnderTest.evolve, attemptUnderTest.initialState) as AttemptRecord;
    const record = fold([
      ...history,
      {
        type: 'LegPending',
        data: { sliceId: 's-arb', providerStatus: 'expired', at: T0 + 8, fillDeadlineAt: T0 + 7200_000 },
      },
      { type: 'LegOwed', data: { sliceId: 's-arb', until: owedUntil, at: limit } },
    ]);
    const arb = record.slices.find((s) => s.sliceId === 's-arb');
    expect(arb).toMatchObject({ status: 'pending', fillDeadlineAt: T0 + 7200_000, followedUntil: owedUntil });
    const old = fold(history).slices.find((s) => s.sliceId === 's-arb');
    expect(old?.fillDeadlineAt ?? null).toBeNull();
    expect(old?.followedUntil ?? null).toBeNull();
  });
});
