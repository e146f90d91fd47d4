import { decideTxFinality } from '@svc/domain';
import {
  type Head,
  headChange,
  legsDue,
  mayDecide,
  type NodeBlocks,
  txViewsAt,
  type WaitingLeg,
} from './confirmation-schedule';

/**
 * The block-driven confirmation rules (ADR 0008 "Confirmation is block-driven"), given waiting legs and heads, when a
 * head arrives, then exactly these legs are checked (and their nodes' views read from one block per height).
 */
const H = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const TX = (n: number) => `0x${'f'.repeat(56)}${n.toString(16).padStart(8, '0')}`;
const BASE = 8453;
const ETH = 1;

const leg = (
  id: string,
  fillBlock: bigint,
  source: WaitingLeg['source'] = null,
  chainId = BASE,
): WaitingLeg => ({
  attemptId: `a-${id}`,
  sliceId: 's1',
  fill: { chainId, txHash: TX(Number(fillBlock)), blockNumber: fillBlock, blockHash: H(Number(fillBlock)) },
  source,
});
const head = (number: bigint, hash = H(Number(number)), parentHash = H(Number(number) - 1)): Head => ({
  number,
  hash,
  parentHash,
});

describe('legsDue: which waiting legs a head makes worth checking', () => {
  const given = (...legs: WaitingLeg[]) => ({
    when: (finalBlocks: [number, bigint][], reorged: number[] = []) => ({
      then: (expected: WaitingLeg[]) =>
        expect(legsDue(legs, { finalBlocks: new Map(finalBlocks), reorged: new Set(reorged) })).toEqual(
          expected,
        ),
    }),
  });

  it('given legs seen at 100, 101 and 102 (2-block policy), when head 103 arrives (final 101), then 100 and 101 only', () => {
    const [a, b, c] = [leg('a', 100n), leg('b', 101n), leg('c', 102n)];
    given(a, b, c)
      .when([[BASE, 101n]])
      .then([a, b]);
  });

  it('given a leg at 100, when heads up to 101 arrive (final ≤ 99), then nothing is read; at head 102 it is', () => {
    const a = leg('a', 100n);
    given(a)
      .when([[BASE, 98n]])
      .then([]);
    given(a)
      .when([[BASE, 99n]])
      .then([]);
    given(a)
      .when([[BASE, 100n]])
      .then([a]);
  });

  it('given a leg whose source on another chain is not final yet, when its fill is final, then it waits for the source chain', () => {
    const a = leg('a', 100n, { chainId: ETH, txHash: TX(7), blockNumber: 500n });
    given(a)
      .when([
        [BASE, 120n],
        [ETH, 499n],
      ])
      .then([]);
    given(a)
      .when([
        [BASE, 120n],
        [ETH, 500n],
      ])
      .then([a]);
    given(a)
      .when([[BASE, 120n]])
      .then([]); // the source chain's head not read yet: nothing decided on a guess
  });

  it('given a source of an earlier build (no block recorded), when the fill is final, then the leg is due (its source is read with it)', () => {
    const a = leg('a', 100n, { chainId: ETH, txHash: TX(7), blockNumber: null });
    given(a)
      .when([[BASE, 100n]])
      .then([a]);
  });

  it('given legs on two chains, when only one chain reorganised, then every leg on it is due, whatever its depth, and none other', () => {
    const onBase = leg('a', 100n);
    const sourcedOnBase = leg('b', 300n, { chainId: BASE, txHash: TX(9), blockNumber: 99n }, ETH);
    const onEth = leg('c', 400n, null, ETH);
    given(onBase, sourcedOnBase, onEth)
      .when(
        [
          [BASE, 90n],
          [ETH, 10n],
        ],
        [BASE],
      )
      .then([onBase, sourcedOnBase]);
  });
});

describe('headChange: how a chain head moved since the last look', () => {
  it('the first head, and the next block on top of the last: advanced', () => {
    expect(headChange(null, head(10n))).toEqual({ kind: 'advanced' });
    expect(headChange(head(10n), head(11n))).toEqual({ kind: 'advanced' });
  });

  it('the same head: nothing to do', () => {
    expect(headChange(head(10n), head(10n))).toEqual({ kind: 'same' });
  });

  it('another block at the same height, a lower head, or a parent that is not the last head: reorganised', () => {
    expect(headChange(head(10n), head(10n, H(999)))).toEqual({ kind: 'reorged' });
    expect(headChange(head(10n), head(9n))).toEqual({ kind: 'reorged' });
    expect(headChange(head(10n), head(11n, H(11), H(998)))).toEqual({ kind: 'reorged' });
  });

  it('several blocks later: whether the last head is still there is read once, at its height', () => {
    expect(headChange(head(10n), head(13n))).toEqual({ kind: 'gap', checkAt: 10n, expectHash: H(10) });
  });
});

describe('txViewsAt: each node’s view of a transaction from its block at the height it was seen at', () => {
  const block = (n: number, txs: string[]) => ({ hash: H(n), transactions: new Set(txs) });
  const node = (finalBlock: bigint, blocks: [bigint, ReturnType<typeof block> | null][]): NodeBlocks => ({
    ok: true,
    finalBlock,
    blocks: new Map(blocks),
  });

  it('one block read serves every transaction in it: final at depth, awaiting before', () => {
    const nodes = [node(100n, [[100n, block(100, [TX(1), TX(2)])]])];
    for (const tx of [TX(1), TX(2)]) {
      expect(decideTxFinality(txViewsAt(nodes, tx, 100n), 1, { blockHash: H(100) })).toEqual({
        kind: 'final',
        blockNumber: '100',
        blockHash: H(100),
      });
    }
    expect(
      decideTxFinality(txViewsAt([node(99n, [[100n, block(100, [TX(1)])]])], TX(1), 100n), 1, {
        blockHash: H(100),
      }),
    ).toMatchObject({ kind: 'awaiting' });
  });

  it('the height now holds another block (reorganised), without or with the transaction: gone from where it was seen', () => {
    const replaced = [node(100n, [[100n, { hash: H(555), transactions: new Set<string>() }]])];
    expect(decideTxFinality(txViewsAt(replaced, TX(1), 100n), 1, { blockHash: H(100) })).toMatchObject({
      kind: 'gone',
    });
    const remined = [node(100n, [[100n, { hash: H(555), transactions: new Set([TX(1)]) }]])];
    expect(decideTxFinality(txViewsAt(remined, TX(1), 100n), 1, { blockHash: H(100) })).toMatchObject({
      kind: 'gone',
    });
  });

  it('quorum 2 of 3: a node without the block (lagging) or down does not settle alone; two agreeing nodes do', () => {
    const good = node(101n, [[100n, block(100, [TX(1)])]]);
    const lagging = node(98n, [[100n, null]]);
    const down: NodeBlocks = { ok: false, error: 'chain 8453: timed out' };
    expect(
      decideTxFinality(txViewsAt([good, lagging, down], TX(1), 100n), 2, { blockHash: H(100) }),
    ).toMatchObject({ kind: 'undecided' });
    expect(
      decideTxFinality(txViewsAt([good, good, lagging], TX(1), 100n), 2, { blockHash: H(100) }),
    ).toMatchObject({ kind: 'final' });
  });
});

describe('mayDecide: whether a check can change the attempt (else no stream is loaded)', () => {
  const final = { kind: 'final' as const, blockNumber: '100', blockHash: H(100) };
  const awaiting = { kind: 'awaiting' as const, blockNumber: '100', blockHash: H(100) };
  const gone = { kind: 'gone' as const, reason: 'no receipt' };
  const undecided = { kind: 'undecided' as const, reason: 'split' };
  const src = (finality: typeof final | typeof awaiting | typeof gone) => ({
    chainId: ETH,
    txHash: TX(7),
    finality,
  });

  it('final fill with a final (or no) source settles; any gone reorganises', () => {
    expect(mayDecide({ fill: final, source: null })).toBe(true);
    expect(mayDecide({ fill: final, source: src(final) })).toBe(true);
    expect(mayDecide({ fill: gone, source: null })).toBe(true);
    expect(mayDecide({ fill: awaiting, source: src(gone) })).toBe(true);
  });

  it('awaiting, undecided, or a final fill whose source is still awaiting: nothing to record', () => {
    expect(mayDecide({ fill: awaiting, source: null })).toBe(false);
    expect(mayDecide({ fill: undecided, source: null })).toBe(false);
    expect(mayDecide({ fill: final, source: src(awaiting) })).toBe(false);
  });
});
