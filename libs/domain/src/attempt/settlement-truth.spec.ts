import { deciderSpec } from '@svc/testing';
import { type AttemptCommand } from './attempt.commands';
import { type AttemptEvent } from './attempt.events';
import {
  attemptUnderTest,
  filled,
  hash,
  legPending,
  legSettled,
  observeLeg,
  prepared,
  providerPending,
  submittedWithSignature,
  T0,
} from './attempt.fixture';

/** The rules that make `settled` mean the tokens reached the recipient (security review H2, H3; providers D6). */
const attempt = deciderSpec(attemptUnderTest);
const at = T0 + 50_000;
const underWay: AttemptEvent[] = [...submittedWithSignature, legPending('s-arb', at), providerPending(at)];
const source = (
  over: Partial<Extract<AttemptCommand, { type: 'ObserveSourceTransaction' }>['data']>,
): AttemptCommand =>
  ({
    type: 'ObserveSourceTransaction',
    data: {
      chainId: 1,
      txHash: hash(2),
      now: at,
      outcome: 'confirmed',
      callIds: ['chain:1:call:1'],
      blockNumber: '100',
      minedAt: T0 + 1000,
      claimedBy: 'at_1',
      ...over,
    },
  }) as AttemptCommand;

describe('ObserveLeg: settled is backed by what reached the recipient', () => {
  it('a fill of nothing is rejected once and the leg stays open', () => {
    const rejected: AttemptEvent = {
      type: 'LegFillRejected',
      data: { sliceId: 's-arb', destinationTxHash: hash(900), reason: 'the fill delivered nothing', at },
    };
    attempt
      .given(underWay)
      .when(observeLeg('s-arb', filled('0'), at))
      .then([rejected]);
    attempt
      .given([...underWay, rejected])
      .when(observeLeg('s-arb', filled('0'), at + 1))
      .then([]);
    attempt
      .given([...underWay, rejected])
      .when(observeLeg('s-arb', filled('249000000', hash(901)), at + 1))
      .then([legSettled('s-arb', '249000000', at + 1, hash(901))]);
  });

  it('a fill below the minimum output ends the leg below_minimum, with what arrived; never settled', () => {
    attempt
      .given([...underWay, legSettled('s-eth', '1', at), legSettled('s-base', '50000000', at)])
      .when(observeLeg('s-arb', filled('248999999'), at))
      .then([
        {
          type: 'LegFailed',
          data: {
            sliceId: 's-arb',
            errorCode: 'below_minimum',
            errorMessage: 'the fill delivered 248999999 base units, below the minimum output 249000000',
            refundTxHash: null,
            destinationTxHash: hash(900),
            settledAmount: '248999999',
            amountBasis: 'exact',
            at,
          },
        },
        {
          type: 'AttemptFailed',
          data: {
            errorCode: 'below_minimum',
            errorMessage: 'the fill delivered 248999999 base units, below the minimum output 249000000',
            at,
          },
        },
      ]);
  });

  it('a failed destination action and a refund record where the funds went', () => {
    const refund = {
      chainId: 8453,
      token: '0x04',
      amount: '249000000',
      amountBasis: 'exact' as const,
      txHash: hash(900),
      to: prepared.wallet,
    };
    attempt
      .given(underWay)
      .when(
        observeLeg(
          's-arb',
          { state: 'destination_action_failed', destinationTxHash: hash(900), reason: 'swap failed', refund },
          at,
        ),
      )
      .then([
        {
          type: 'LegFailed',
          data: {
            sliceId: 's-arb',
            errorCode: 'destination_action_failed',
            errorMessage: 'swap failed',
            refundTxHash: hash(900),
            destinationTxHash: hash(900),
            refund,
            at,
          },
        },
      ]);
  });
});

describe('ObserveSourceTransaction: evidence that cannot be replayed', () => {
  it('confirms a transaction mined after prepare and claimed by this attempt', () => {
    attempt
      .given(submittedWithSignature)
      .when(source({}))
      .then([
        {
          type: 'SourceTransactionConfirmed',
          data: { chainId: 1, txHash: hash(2), callIds: ['chain:1:call:1'], blockNumber: '100', at },
        },
        providerPending(at),
      ]);
  });

  it('refuses a transaction mined before the attempt was prepared (beyond the clock skew)', () => {
    attempt
      .given(submittedWithSignature)
      .when(source({ minedAt: T0 - 60_001 }))
      .then([
        {
          type: 'SourceTransactionMismatched',
          data: { chainId: 1, txHash: hash(2), reason: 'mined before the attempt was prepared', at },
        },
      ]);
    attempt
      .given(submittedWithSignature)
      .when(source({ outcome: 'reverted', minedAt: T0 - 60_001 } as never))
      .then([
        {
          type: 'SourceTransactionMismatched',
          data: { chainId: 1, txHash: hash(2), reason: 'mined before the attempt was prepared', at },
        },
      ]);
  });

  it('refuses a transaction another attempt has claimed', () => {
    attempt
      .given(submittedWithSignature)
      .when(source({ claimedBy: 'at_other' }))
      .then([
        {
          type: 'SourceTransactionMismatched',
          data: { chainId: 1, txHash: hash(2), reason: 'already the evidence of another attempt', at },
        },
      ]);
  });

  it('records a hash the node never knew once, as unknown', () => {
    const unknown = { outcome: 'unknown', reason: 'never known' } as never;
    const recorded: AttemptEvent = {
      type: 'SourceTransactionUnknown',
      data: { chainId: 1, txHash: hash(2), reason: 'never known', at },
    };
    attempt.given(submittedWithSignature).when(source(unknown)).then([recorded]);
    attempt
      .given([...submittedWithSignature, recorded])
      .when(source(unknown))
      .then([]);
  });
});

describe('MarkLegDelayed: slow or stuck, visible', () => {
  const delayed = (sliceId: string, now: number): AttemptCommand => ({
    type: 'MarkLegDelayed',
    data: { sliceId, since: T0 + 1000, expectedBy: T0 + 41_000, explorerUrl: 'https://explorer/x', now },
  });
  const marked: AttemptEvent = {
    type: 'LegDelayed',
    data: {
      sliceId: 's-arb',
      since: T0 + 1000,
      expectedBy: T0 + 41_000,
      explorerUrl: 'https://explorer/x',
      at,
    },
  };

  it('marks an open leg past its expected time, once', () => {
    attempt.given(underWay).when(delayed('s-arb', at)).then([marked]);
    attempt
      .given([...underWay, marked])
      .when(delayed('s-arb', at + 1))
      .then([]);
  });

  it('never marks a leg before its expected time, nor one that ended', () => {
    attempt
      .given(underWay)
      .when(delayed('s-arb', T0 + 40_999))
      .then([]);
    attempt
      .given([...underWay, legSettled('s-arb', '249000000', at)])
      .when(delayed('s-arb', at))
      .then([]);
  });
});
