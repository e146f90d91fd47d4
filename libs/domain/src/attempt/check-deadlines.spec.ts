import { deciderSpec } from '@svc/testing';
import { type AttemptEvent } from './attempt.events';
import {
  attemptUnderTest,
  attemptPrepared,
  checkDeadlines,
  EVIDENCE_DEADLINE,
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
