import { deciderSpec } from '@svc/testing';
import { type AttemptEvent } from './attempt.events';
import { AttemptInputError } from './attempt-input.error';
import {
  attemptUnderTest,
  attemptPrepared,
  evidenceReported,
  filled,
  hash,
  legPending,
  legSettled,
  observeLeg,
  providerPending,
  submittedWithSignature,
  T0,
  walletSubmitted,
} from './attempt.fixture';

const attempt = deciderSpec(attemptUnderTest);
const at = T0 + 50_000;
const unsigned: AttemptEvent[] = [
  attemptPrepared,
  evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(1)] }]),
  walletSubmitted(),
];
const pendingAll = (history: AttemptEvent[]) => [...history, legPending('s-eth', at), providerPending(at)];
const refunded = (sliceId: string): AttemptEvent => ({
  type: 'LegFailed',
  data: { sliceId, errorCode: 'refunded', errorMessage: 'deposit refunded', refundTxHash: hash(77), at },
});

describe('ObserveLeg', () => {
  it('records a pending slice and moves wallet_submitted to provider_pending', () => {
    attempt
      .given(submittedWithSignature)
      .when(observeLeg('s-eth', { state: 'pending', providerStatus: 'waiting' }, at))
      .then([legPending('s-eth', at), providerPending(at)]);
  });

  it('ignores an unchanged pending status and records a changed one', () => {
    const history = pendingAll(submittedWithSignature);
    attempt
      .given(history)
      .when(observeLeg('s-eth', { state: 'pending', providerStatus: 'waiting' }, at + 1))
      .then([]);
    attempt
      .given(history)
      .when(observeLeg('s-eth', { state: 'pending', providerStatus: 'filling' }, at + 1))
      .then([legPending('s-eth', at + 1, 'filling')]);
  });

  it('never skips provider_pending: a fill seen while wallet_submitted emits it first', () => {
    attempt
      .given(submittedWithSignature)
      .when(observeLeg('s-eth', filled('999000000'), at))
      .then([legSettled('s-eth', '999000000', at), providerPending(at)]);
  });

  it('settles a no-op slice with the fill the tracker reports for it', () => {
    attempt
      .given(pendingAll(submittedWithSignature))
      .when(observeLeg('s-base', filled('50000000', null), at))
      .then([legSettled('s-base', '50000000', at, null)]);
  });

  it('settles the attempt once every slice settled and the signature is recorded', () => {
    attempt
      .given([
        ...pendingAll(submittedWithSignature),
        legSettled('s-eth', '1', at),
        legSettled('s-base', '50000000', at),
      ])
      .when(observeLeg('s-arb', filled('249400000'), at))
      .then([legSettled('s-arb', '249400000', at), { type: 'AttemptSettled', data: { at } }]);
  });

  it('does not settle without the signature: every slice settled, the attempt stays provider_pending', () => {
    attempt
      .given([...pendingAll(unsigned), legSettled('s-eth', '1', at), legSettled('s-base', '50000000', at)])
      .when(observeLeg('s-arb', filled('249400000'), at))
      .then([legSettled('s-arb', '249400000', at)]);
  });

  it('fails a refunded slice, and the attempt once no slice is open, with the first failure', () => {
    attempt
      .given(pendingAll(submittedWithSignature))
      .when(
        observeLeg('s-arb', { state: 'refunded', refundTxHash: hash(77), reason: 'deposit refunded' }, at),
      )
      .then([refunded('s-arb')]);
    attempt
      .given([...pendingAll(submittedWithSignature), refunded('s-arb'), legSettled('s-base', '50000000', at)])
      .when(observeLeg('s-eth', { state: 'failed', reason: 'solver gave up' }, at))
      .then([
        {
          type: 'LegFailed',
          data: {
            sliceId: 's-eth',
            errorCode: 'provider_failed',
            errorMessage: 'solver gave up',
            refundTxHash: null,
            at,
          },
        },
        { type: 'AttemptFailed', data: { errorCode: 'refunded', errorMessage: 'deposit refunded', at } },
      ]);
  });

  it('ignores anything about a settled or failed slice', () => {
    const history = [...pendingAll(submittedWithSignature), legSettled('s-eth', '1', at), refunded('s-arb')];
    attempt
      .given(history)
      .when(observeLeg('s-eth', { state: 'failed', reason: 'late' }, at))
      .then([]);
    attempt
      .given(history)
      .when(observeLeg('s-arb', filled('5'), at))
      .then([]);
    attempt
      .given(history)
      .when(observeLeg('s-arb', { state: 'pending', providerStatus: 'x' }, at))
      .then([]);
  });

  it('records slices observed before any evidence, leaving a prepared attempt prepared', () => {
    attempt
      .given([attemptPrepared])
      .when(observeLeg('s-eth', { state: 'pending', providerStatus: 'waiting' }, at))
      .then([legPending('s-eth', at)]);
  });

  it('throws on a slice the attempt does not have and on an amount that is not base-10 digits', () => {
    attempt
      .given(submittedWithSignature)
      .when(observeLeg('s-x', filled('1'), at))
      .thenThrows(AttemptInputError);
    attempt
      .given(submittedWithSignature)
      .when(observeLeg('s-eth', filled('1.5'), at))
      .thenThrows(AttemptInputError);
    attempt
      .given(submittedWithSignature)
      .when(observeLeg('s-eth', filled('-1'), at))
      .thenThrows(AttemptInputError);
  });
});
