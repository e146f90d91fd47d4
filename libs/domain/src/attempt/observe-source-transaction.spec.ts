import { deciderSpec } from '@svc/testing';
import { type AttemptEvent } from './attempt.events';
import { AttemptInputError } from './attempt-input.error';
import {
  attemptUnderTest,
  attemptPrepared,
  confirmTx,
  evidenceReported,
  hash,
  legSettled,
  providerPending,
  revertTx,
  sourceConfirmed,
  submittedWithSignature,
  T0,
  walletSubmitted,
} from './attempt.fixture';

const attempt = deciderSpec(attemptUnderTest);
const at = T0 + 40_000;
const reverted = (chainId: number, txHash: string, when = at): AttemptEvent => ({
  type: 'SourceTransactionReverted',
  data: { chainId, txHash, at: when },
});
const sourceReverted = (sliceId: string, chainId: number): AttemptEvent => ({
  type: 'LegFailed',
  data: {
    sliceId,
    errorCode: 'source_reverted',
    errorMessage: `every source transaction on chain ${chainId} reverted`,
    refundTxHash: null,
    at,
  },
});

describe('ObserveSourceTransaction', () => {
  it('confirms a tx and moves wallet_submitted to provider_pending', () => {
    attempt
      .given(submittedWithSignature)
      .when(confirmTx(1, hash(2), ['chain:1:call:1'], at))
      .then([sourceConfirmed(1, hash(2), ['chain:1:call:1'], at), providerPending(at)]);
  });

  it('only records a confirmation once provider_pending, and lower-cases the hash', () => {
    attempt
      .given([
        ...submittedWithSignature,
        sourceConfirmed(1, hash(1), ['chain:1:call:0'], at),
        providerPending(at),
      ])
      .when(confirmTx(1, hash(0xabc).toUpperCase().replace('0X', '0x'), ['chain:1:call:1'], at))
      .then([sourceConfirmed(1, hash(0xabc), ['chain:1:call:1'], at)]);
  });

  it('classifies a tx once: the same tx again is nothing, whatever the outcome', () => {
    const history = [...submittedWithSignature, sourceConfirmed(1, hash(1), [], at), providerPending(at)];
    attempt
      .given(history)
      .when(confirmTx(1, hash(1), [], at + 1))
      .then([]);
    attempt
      .given(history)
      .when(revertTx(1, hash(1), at + 1))
      .then([]);
  });

  it('records a mismatched tx and nothing else: it never confirms and never moves the attempt', () => {
    const mismatch = {
      type: 'ObserveSourceTransaction',
      data: {
        chainId: 42161,
        txHash: hash(4),
        now: at,
        outcome: 'mismatched',
        reason: 'calls another contract',
      },
    } as const;
    attempt
      .given(submittedWithSignature)
      .when(mismatch)
      .then([
        {
          type: 'SourceTransactionMismatched',
          data: { chainId: 42161, txHash: hash(4), reason: 'calls another contract', at },
        },
      ]);
  });

  it('keeps the chain open while one of its reported txs is not reverted', () => {
    attempt
      .given(submittedWithSignature)
      .when(revertTx(1, hash(1), at))
      .then([reverted(1, hash(1))]);
  });

  it('fails the chain open slices once every reported tx of the chain reverted', () => {
    attempt
      .given([...submittedWithSignature, reverted(1, hash(1))])
      .when(revertTx(1, hash(2), at))
      .then([reverted(1, hash(2)), sourceReverted('s-eth', 1)]);
  });

  it('fails nothing when a tx of the chain confirmed (an approval) before another reverted', () => {
    attempt
      .given([
        ...submittedWithSignature,
        sourceConfirmed(1, hash(1), ['chain:1:call:0'], at),
        providerPending(at),
      ])
      .when(revertTx(1, hash(2), at))
      .then([reverted(1, hash(2))]);
  });

  it('fails a bundle-only chain once the tx the tracker resolved reverted', () => {
    attempt
      .given(submittedWithSignature)
      .when(revertTx(42161, hash(44), at))
      .then([reverted(42161, hash(44)), sourceReverted('s-arb', 42161)]);
  });

  it('fails the attempt from provider_pending once the last open slice failed that way', () => {
    attempt
      .given([
        ...submittedWithSignature,
        legSettled('s-arb', '249500000', at),
        providerPending(at),
        legSettled('s-base', '50000000', at),
        reverted(1, hash(1)),
      ])
      .when(revertTx(1, hash(2), at))
      .then([
        reverted(1, hash(2)),
        sourceReverted('s-eth', 1),
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'source_reverted',
            errorMessage: 'every source transaction on chain 1 reverted',
            at,
          },
        },
      ]);
  });

  it('fails the attempt straight from wallet_submitted when every source tx reverted', () => {
    attempt
      .given([
        ...submittedWithSignature,
        reverted(1, hash(1)),
        reverted(1, hash(2)),
        sourceReverted('s-eth', 1),
      ])
      .when(revertTx(42161, hash(44), at))
      .then([reverted(42161, hash(44)), sourceReverted('s-arb', 42161)]);
    attempt
      .given([
        ...submittedWithSignature,
        reverted(1, hash(1)),
        reverted(1, hash(2)),
        sourceReverted('s-eth', 1),
        reverted(42161, hash(44)),
        sourceReverted('s-arb', 42161),
      ])
      .when(revertTx(8453, hash(3), at))
      .then([
        reverted(8453, hash(3)),
        sourceReverted('s-base', 8453),
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'source_reverted',
            errorMessage: 'every source transaction on chain 1 reverted',
            at,
          },
        },
      ]);
  });

  it('records what the tracker saw before any evidence without moving a prepared attempt', () => {
    attempt
      .given([attemptPrepared])
      .when(confirmTx(1, hash(1), ['chain:1:call:1'], at))
      .then([sourceConfirmed(1, hash(1), ['chain:1:call:1'], at)]);
  });

  it('throws on a chain the attempt has no action on: the tracker only reads prepared chains', () => {
    attempt
      .given([attemptPrepared, evidenceReported('r1', []), walletSubmitted()])
      .when(confirmTx(56, hash(1), [], at))
      .thenThrows(AttemptInputError);
  });
});
