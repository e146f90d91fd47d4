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
 * A target delivered as another token (issue 24, providers review N7): Across's SpokePool pays a WETH output as ETH
 * to an EOA or an EIP-7702 wallet (across-protocol/contracts SpokePool.sol `_unwrapwrappedNativeTokenTo`). The leg is
 * settled (the recipient holds the amount) and says in what: `deliveredToken`, the zero address for the native
 * currency, carried from the fill read through confirmation to LegSettled.
 */
const attempt = deciderSpec(attemptUnderTest);
const at = T0 + 50_000;
const NATIVE = '0x0000000000000000000000000000000000000000';
const FILL = hash(900);
const SOURCE = hash(2);
const B1 = { blockNumber: '120', blockHash: hash(0xb1) };
const paidAsEth = (settledAmount: string): LegProgress => ({
  state: 'filled',
  destinationTxHash: FILL,
  settledAmount,
  amountBasis: 'exact',
  deliveredToken: NATIVE,
});
const asEth = paidAsEth('999000000');
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

describe('a target paid as the native currency (N7)', () => {
  it('given a leg under way, when its fill delivered ETH for the target, then it settles naming the token', () => {
    attempt
      .given([...submittedWithSignature, legPending('s-arb', at), providerPending(at)])
      .when(observeLeg('s-arb', paidAsEth('249000000'), at))
      .then([
        {
          type: 'LegSettled',
          data: {
            sliceId: 's-arb',
            destinationTxHash: FILL,
            settledAmount: '249000000',
            amountBasis: 'exact',
            at,
            deliveredToken: NATIVE,
          },
        },
      ]);
  });

  it('awaiting confirmations, the delivered token is kept from the fill seen to the leg settled', () => {
    const seen: AttemptEvent = {
      type: 'LegFillSeen',
      data: { ...fillData, at, ...B1, deliveredToken: NATIVE } as never,
    };
    const observe: AttemptCommand = {
      type: 'ObserveLeg',
      data: { sliceId: 's-eth', progress: asEth, now: at, finality: finality({ kind: 'awaiting', ...B1 }) },
    };
    attempt.given(filling).when(observe).then([seen]);
    expect(
      fold([...filling, seen]).slices.find((s) => s.sliceId === 's-eth')?.awaitingConfirmation,
    ).toMatchObject({ deliveredToken: NATIVE });
    const confirm: AttemptCommand = {
      type: 'ConfirmLeg',
      data: { sliceId: 's-eth', finality: finality({ kind: 'final', ...B1 }), now: at + 1 },
    };
    const events = attemptUnderTest.decide(confirm, fold([...filling, seen]));
    expect(events[0]).toEqual({
      type: 'LegSettled',
      data: { ...fillData, at: at + 1, ...B1, deliveredToken: NATIVE },
    });
    expect(
      fold([...filling, seen, ...events]).slices.find((s) => s.sliceId === 's-eth')?.deliveredToken,
    ).toBe(NATIVE);
  });

  it('a LegSettled of an earlier build, without the field, folds to a leg delivered in the target', () => {
    const state = fold([...filling]);
    expect(state.slices.find((s) => s.sliceId === 's-arb')).toMatchObject({ status: 'settled' });
    expect(state.slices.find((s) => s.sliceId === 's-arb')).not.toHaveProperty('deliveredToken');
  });

  it('the snapshot names the delivered token on that leg only (additive: absent on every other leg)', () => {
    const settledAsEth: AttemptEvent = {
      type: 'LegSettled',
      data: { ...fillData, at, ...B1, deliveredToken: NATIVE } as never,
    };
    const legs = attemptSnapshot(fold([...filling, settledAsEth]), {
      chainName: (chainId: number) => `chain ${chainId}`,
    }).perChainStatus.flatMap((c) => c.legs);
    const eth = legs.find((l) => l.settledAmount === '999000000');
    expect(eth).toMatchObject({ status: 'settled', settledAmountBasis: 'exact', deliveredToken: NATIVE });
    expect(legs.filter((l) => 'deliveredToken' in l)).toHaveLength(1);
  });
});
