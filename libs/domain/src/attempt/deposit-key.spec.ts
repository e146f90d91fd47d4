import { deciderSpec } from '@svc/testing';
import { type TxFinality } from '../tracking/tx-finality';
import { type AttemptCommand, type LegProgress } from './attempt.commands';
import { type AttemptEvent } from './attempt.events';
import { type AttemptRecord } from './attempt-record';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import { attemptSnapshot } from './attempt-snapshot';
import {
  attemptUnderTest,
  hash,
  legPending,
  legSettled,
  observeLeg,
  providerPending,
  sourceConfirmed,
  submittedWithSignature,
  T0,
} from './attempt.fixture';

/**
 * The deposit a settled leg's fill was attributed to (issue 24 item 1): the tracker claims a batched fill per
 * (chain, transaction, deposit), and LegSettled (and LegFillSeen before it) names the deposit key it claimed, so the
 * audit can check that claim stream names this leg. Additive: an earlier build's events, without it, still fold.
 */
const attempt = deciderSpec(attemptUnderTest);
const at = T0 + 50_000;
const FILL = hash(900);
const SOURCE = hash(2);
const KEY = 'across-1-7';
const B1 = { blockNumber: '120', blockHash: hash(0xb1) };
const filled = (depositKey?: string, settledAmount = '999000000'): LegProgress => ({
  state: 'filled',
  destinationTxHash: FILL,
  settledAmount,
  amountBasis: 'exact',
  ...(depositKey !== undefined ? { depositKey } : {}),
});
const fold = (events: AttemptEvent[]) => events.reduce(evolveAttempt, initialAttemptState) as AttemptRecord;
const filling: AttemptEvent[] = [
  ...submittedWithSignature,
  sourceConfirmed(1, SOURCE, ['chain:1:call:0', 'chain:1:call:1'], T0 + 20_000),
  legPending('s-eth', T0 + 30_000),
  providerPending(T0 + 30_000),
  legSettled('s-arb', '249400000', T0 + 30_000),
  legSettled('s-base', '50000000', T0 + 30_000),
];
const finality = (fill: TxFinality) => ({
  fill,
  source: { chainId: 1, txHash: SOURCE, finality: { kind: 'final', ...B1 } as TxFinality },
});
const fillData = {
  sliceId: 's-eth',
  destinationTxHash: FILL,
  settledAmount: '999000000',
  amountBasis: 'exact',
};

describe('LegSettled names the deposit its fill was claimed under', () => {
  it('given a leg under way, when its fill is read and claimed under a deposit key, then LegSettled names it', () => {
    attempt
      .given([...submittedWithSignature, legPending('s-arb', at), providerPending(at)])
      .when(observeLeg('s-arb', filled(KEY, '249000000'), at))
      .then([
        {
          type: 'LegSettled',
          data: {
            sliceId: 's-arb',
            destinationTxHash: FILL,
            settledAmount: '249000000',
            amountBasis: 'exact',
            at,
            depositKey: KEY,
          },
        },
      ]);
  });

  it('awaiting confirmations, the key is kept from LegFillSeen to LegSettled, and the settled leg holds it', () => {
    const seen: AttemptEvent = {
      type: 'LegFillSeen',
      data: { ...fillData, at, ...B1, depositKey: KEY } as never,
    };
    const observe: AttemptCommand = {
      type: 'ObserveLeg',
      data: {
        sliceId: 's-eth',
        progress: filled(KEY),
        now: at,
        finality: finality({ kind: 'awaiting', ...B1 }),
      },
    };
    attempt.given(filling).when(observe).then([seen]);
    const confirm: AttemptCommand = {
      type: 'ConfirmLeg',
      data: { sliceId: 's-eth', finality: finality({ kind: 'final', ...B1 }), now: at + 1 },
    };
    attempt
      .given([...filling, seen])
      .when(confirm)
      .then([
        { type: 'LegSettled', data: { ...fillData, at: at + 1, ...B1, depositKey: KEY } as never },
        expect.objectContaining({ type: 'AttemptSettled' }) as never,
      ]);
    const settled = fold([...filling, seen, ...attemptUnderTest.decide(confirm, fold([...filling, seen]))]);
    expect(settled.slices.find((s) => s.sliceId === 's-eth')).toMatchObject({
      status: 'settled',
      depositKey: KEY,
    });
  });

  it('a fill read without a key (a no-op transfer, a chain not read) settles without one', () => {
    attempt
      .given([...submittedWithSignature, legPending('s-arb', at), providerPending(at)])
      .when(observeLeg('s-arb', filled(), at))
      .then([{ type: 'LegSettled', data: { ...fillData, sliceId: 's-arb', at } as never }]);
  });

  it('a LegSettled and a LegFillSeen of an earlier build, without the key, still fold', () => {
    const seen: AttemptEvent = { type: 'LegFillSeen', data: { ...fillData, at, ...B1 } as never };
    const state = fold([...filling, seen]);
    expect(state.slices.find((s) => s.sliceId === 's-arb')).toMatchObject({ status: 'settled' });
    expect(state.slices.find((s) => s.sliceId === 's-arb')).not.toHaveProperty('depositKey');
    expect(state.slices.find((s) => s.sliceId === 's-eth')?.awaitingConfirmation).not.toHaveProperty(
      'depositKey',
    );
  });

  it('the public snapshot does not show the key (the API is unchanged)', () => {
    const settledWithKey: AttemptEvent = {
      type: 'LegSettled',
      data: { ...fillData, at, ...B1, depositKey: KEY } as never,
    };
    const snapshot = attemptSnapshot(fold([...filling, settledWithKey]), {
      chainName: (chainId: number) => `chain ${chainId}`,
    });
    expect(JSON.stringify(snapshot)).not.toContain(KEY);
  });
});
