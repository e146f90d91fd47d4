import { deciderSpec } from '@svc/testing';
import { type TxFinality } from '../tracking/tx-finality';
import { type AttemptEvent } from './attempt.events';
import { type AttemptCommand } from './attempt.commands';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import { type AttemptRecord } from './attempt-record';
import {
  attemptUnderTest,
  filled,
  hash,
  legPending,
  legSettled,
  providerPending,
  sourceConfirmed,
  submittedWithSignature,
  T0,
} from './attempt.fixture';
import { type LegFinality, legSourceTx } from './confirm-leg';
import { attemptSnapshot } from './attempt-snapshot';

/** Issue 24 item 3 (security review N-M7): a fill settles a leg only once final; a reorganisation is a fact. */
const attempt = deciderSpec(attemptUnderTest);
const at = T0 + 50_000;
const FILL = hash(900);
const SOURCE = hash(2);
const B1 = { blockNumber: '120', blockHash: hash(0xb1) };
const B2 = { blockNumber: '121', blockHash: hash(0xb2) };

const final = (block = B1): TxFinality => ({ kind: 'final', ...block });
const awaiting = (block = B1): TxFinality => ({ kind: 'awaiting', ...block });
const gone: TxFinality = { kind: 'gone', reason: '1 of 1 nodes have no receipt' };
const undecided: TxFinality = { kind: 'undecided', reason: 'no 2 of 3 nodes agree' };
const finality = (fill: TxFinality, source: TxFinality | null = final()): LegFinality => ({
  fill,
  source: source === null ? null : { chainId: 1, txHash: SOURCE, finality: source },
});

const observe = (fill: TxFinality, source: TxFinality | null = final(), now = at): AttemptCommand => ({
  type: 'ObserveLeg',
  data: { sliceId: 's-eth', progress: filled('999000000'), now, finality: finality(fill, source) },
});
const confirm = (fill: TxFinality, source: TxFinality | null = final(), now = at): AttemptCommand => ({
  type: 'ConfirmLeg',
  data: { sliceId: 's-eth', finality: finality(fill, source), now },
});
const recheck = (fill: TxFinality, now = at): AttemptCommand => ({
  type: 'RecheckSettledLeg',
  data: { sliceId: 's-eth', fill, now },
});

const seen = (block = B1, when = at): AttemptEvent => ({
  type: 'LegFillSeen',
  data: {
    sliceId: 's-eth',
    destinationTxHash: FILL,
    settledAmount: '999000000',
    amountBasis: 'exact',
    at: when,
    ...block,
  },
});
const settled = (block = B1, when = at): AttemptEvent => ({
  type: 'LegSettled',
  data: {
    sliceId: 's-eth',
    destinationTxHash: FILL,
    settledAmount: '999000000',
    amountBasis: 'exact',
    at: when,
    ...block,
  },
});
const reorged = (reason: string, when = at): AttemptEvent => ({
  type: 'LegFillReorged',
  data: { sliceId: 's-eth', destinationTxHash: FILL, reason, at: when },
});

/** s-eth's deposit confirmed on chain 1, the provider filling; the other two slices already settled. */
const filling: AttemptEvent[] = [
  ...submittedWithSignature,
  sourceConfirmed(1, SOURCE, ['chain:1:call:0', 'chain:1:call:1'], T0 + 20_000),
  legPending('s-eth', T0 + 30_000),
  providerPending(T0 + 30_000),
  legSettled('s-arb', '249400000', T0 + 30_000),
  legSettled('s-base', '50000000', T0 + 30_000),
];
const fold = (events: AttemptEvent[]) => events.reduce(evolveAttempt, initialAttemptState) as AttemptRecord;

describe('a fill settles only once final (ObserveLeg with finality)', () => {
  it('a fill at depth 0 is seen, not settled: the leg stays pending, awaiting confirmations', () => {
    attempt.given(filling).when(observe(awaiting())).then([seen()]);
    const leg = fold([...filling, seen()]).slices.find((s) => s.sliceId === 's-eth')!;
    expect(leg.status).toBe('pending');
    expect(leg.awaitingConfirmation).toMatchObject({ destinationTxHash: FILL, ...B1, since: at });
  });

  it('the snapshot shows the leg pending with awaitingConfirmations (additive), gone once settled', () => {
    const names = { chainName: () => 'x' };
    const legOf = (events: AttemptEvent[]) =>
      attemptSnapshot(fold(events), names)
        .perChainStatus.flatMap((c) => c.legs)
        .find((l) => l.legIndex === 0)!;
    expect(legOf([...filling, seen()])).toMatchObject({
      status: 'pending',
      settledAmount: null,
      awaitingConfirmations: {
        destinationChainTxHash: FILL,
        blockNumber: '120',
        settledAmount: '999000000',
        seenAt: new Date(at).toISOString(),
      },
    });
    expect(legOf(filling)).not.toHaveProperty('awaitingConfirmations');
    expect(legOf([...filling, seen(), settled()])).not.toHaveProperty('awaitingConfirmations');
  });

  it('the same fill in the same block again is no news', () => {
    attempt
      .given([...filling, seen()])
      .when(observe(awaiting(), final(), at + 1))
      .then([]);
  });

  it('final fill and final source: the leg settles with its block, and the attempt with it', () => {
    attempt
      .given(filling)
      .when(observe(final()))
      .then([settled(), { type: 'AttemptSettled', data: { at } }]);
  });

  it('a final fill whose source transaction is not final yet only awaits', () => {
    attempt
      .given(filling)
      .when(observe(final(), awaiting(B2)))
      .then([seen()]);
  });

  it('nodes that do not agree decide nothing', () => {
    attempt.given(filling).when(observe(undecided)).then([]);
  });

  it('a fill the nodes do not have (never seen) records nothing: the leg stays open', () => {
    attempt.given(filling).when(observe(gone)).then([]);
  });

  it('without finality (no hash to check, a chain the service cannot read) a fill settles as before', () => {
    attempt
      .given(filling)
      .when({ type: 'ObserveLeg', data: { sliceId: 's-eth', progress: filled('999000000'), now: at } })
      .then([
        {
          type: 'LegSettled',
          data: {
            sliceId: 's-eth',
            destinationTxHash: FILL,
            settledAmount: '999000000',
            amountBasis: 'exact',
            at,
          },
        },
        { type: 'AttemptSettled', data: { at } },
      ]);
  });
});

describe('ConfirmLeg: the awaited fill read again', () => {
  const awaited = [...filling, seen()];

  it('after N blocks the fill is final: settled, and so is the attempt', () => {
    attempt
      .given(awaited)
      .when(confirm(final(), final(), at + 5))
      .then([settled(B1, at + 5), { type: 'AttemptSettled', data: { at: at + 5 } }]);
  });

  it('still awaiting: nothing', () => {
    attempt.given(awaited).when(confirm(awaiting())).then([]);
  });

  it('a reorganisation removed the fill before it was final: back to tracking, recorded', () => {
    attempt
      .given(awaited)
      .when(confirm(gone))
      .then([reorged(gone.kind === 'gone' ? gone.reason : '')]);
    const leg = fold([...awaited, reorged('x')]).slices.find((s) => s.sliceId === 's-eth')!;
    expect(leg.status).toBe('pending');
    expect(leg.awaitingConfirmation).toBeNull();
  });

  it('the fill re-mined in another block: the old sighting is reorganised out, the new one awaited', () => {
    attempt
      .given(awaited)
      .when(confirm(awaiting(B2)))
      .then([reorged('re-mined in block 121'), seen(B2)]);
  });

  it('then the refill settles', () => {
    attempt
      .given([...awaited, reorged('x'), seen(B2, at + 1)])
      .when(confirm(final(B2), final(), at + 9))
      .then([settled(B2, at + 9), { type: 'AttemptSettled', data: { at: at + 9 } }]);
  });

  it("the leg's source transaction reorganised out: recorded, forgotten (read again), and the fill no longer awaited", () => {
    const sourceGone: TxFinality = { kind: 'gone', reason: '2 of 3 nodes have no receipt' };
    const sourceReorged: AttemptEvent = {
      type: 'SourceTransactionReorged',
      data: { chainId: 1, txHash: SOURCE, reason: '2 of 3 nodes have no receipt', at },
    };
    attempt
      .given(awaited)
      .when(confirm(final(), sourceGone))
      .then([sourceReorged, reorged('its source transaction was reorganised out')]);
    const record = fold([...awaited, sourceReorged]);
    expect(record.sourceTxs.some((t) => t.txHash === SOURCE)).toBe(false);
  });

  it('the source transaction keeps the block it was confirmed in (what a move is told by); older records have none', () => {
    expect(legSourceTx(fold(filling), 's-eth')).toEqual({ chainId: 1, txHash: SOURCE, blockNumber: '100' });
    const older: AttemptEvent = {
      type: 'SourceTransactionConfirmed',
      data: { chainId: 1, txHash: SOURCE, callIds: ['chain:1:call:1'], at: T0 } as never,
    };
    const record = fold([...submittedWithSignature, older]);
    expect(legSourceTx(record, 's-eth')).toEqual({ chainId: 1, txHash: SOURCE, blockNumber: null });
  });

  it('a leg not awaiting anything, or settled, is left alone', () => {
    attempt.given(filling).when(confirm(final())).then([]);
    attempt
      .given([...awaited, settled()])
      .when(confirm(gone))
      .then([]);
  });
});

describe('RecheckSettledLeg: a fill that vanishes after settled is never silent (ADR 0008)', () => {
  const done = [...filling, seen(), settled(), { type: 'AttemptSettled', data: { at } } as AttemptEvent];
  const vanished: AttemptEvent = {
    type: 'SettledFillVanished',
    data: { sliceId: 's-eth', destinationTxHash: FILL, reason: '1 of 1 nodes have no receipt', at: at + 60 },
  };

  it('gone from its block after settled: SettledFillVanished, once; the attempt stays settled', () => {
    attempt
      .given(done)
      .when(recheck(gone, at + 60))
      .then([vanished]);
    attempt
      .given([...done, vanished])
      .when(recheck(gone, at + 61))
      .then([]);
    const record = fold([...done, vanished]);
    expect(record.status).toBe('settled');
    expect(record.slices[0].vanished).toMatchObject({ destinationTxHash: FILL });
  });

  it('still there (final or not), or undecided: nothing', () => {
    for (const fill of [final(), awaiting(), undecided]) attempt.given(done).when(recheck(fill)).then([]);
  });
});
