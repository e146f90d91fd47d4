import { decideTxFinality, type NodeTxView } from './tx-finality';

const A = `0x${'a1'.repeat(32)}`;
const B = `0x${'b2'.repeat(32)}`;
const at = (blockNumber: bigint, blockHash: string, finalBlock: bigint): NodeTxView => ({
  ok: true,
  receipt: { blockNumber, blockHash, success: true },
  finalBlock,
});
const none = (finalBlock = 100n): NodeTxView => ({ ok: true, receipt: null, finalBlock });
const down: NodeTxView = { ok: false, error: 'chain 8453: timed out' };

describe('decideTxFinality (issue 24 item 3: confirmation policy and quorum)', () => {
  it('one node: awaiting at depth 0, final once its final block reaches the block', () => {
    expect(decideTxFinality([at(100n, A, 98n)], 1)).toEqual({
      kind: 'awaiting',
      blockNumber: '100',
      blockHash: A,
    });
    expect(decideTxFinality([at(100n, A, 100n)], 1)).toEqual({
      kind: 'final',
      blockNumber: '100',
      blockHash: A,
    });
  });

  it('2 of 3: two nodes agreeing on the block and counting it final decide, whatever the third says', () => {
    expect(decideTxFinality([at(100n, A, 102n), at(100n, A, 101n), none()], 2)).toMatchObject({
      kind: 'final',
    });
    expect(decideTxFinality([at(100n, A, 102n), at(100n, A, 101n), at(100n, B, 105n)], 2)).toMatchObject({
      kind: 'final',
      blockHash: A,
    });
  });

  it('2 of 3: one node alone never decides final, however deep it says the block is', () => {
    expect(decideTxFinality([at(100n, A, 200n), none(), none()], 2)).toMatchObject({ kind: 'gone' });
    expect(decideTxFinality([at(100n, A, 200n), at(100n, B, 200n), none()], 2)).toMatchObject({
      kind: 'undecided',
    });
    expect(decideTxFinality([at(100n, A, 200n), down, down], 2)).toMatchObject({ kind: 'undecided' });
  });

  it('2 of 3: agreeing on the block but only one counting it final is awaiting', () => {
    expect(decideTxFinality([at(100n, A, 100n), at(100n, A, 99n), down], 2)).toMatchObject({
      kind: 'awaiting',
    });
  });

  it('a transaction seen in one block and now in another is gone from where it was seen', () => {
    expect(decideTxFinality([at(101n, B, 110n)], 1, { blockHash: A })).toEqual({
      kind: 'gone',
      reason: `now in block 101 (${B}), not ${A}`,
    });
    expect(
      decideTxFinality([at(100n, A, 110n)], 1, { blockHash: A.toUpperCase().replace('0X', '0x') }),
    ).toMatchObject({ kind: 'final' });
  });

  it('a source transaction confirmed in one block number and now in another is gone from where it was confirmed', () => {
    expect(decideTxFinality([at(103n, B, 110n)], 1, { blockNumber: '100' })).toEqual({
      kind: 'gone',
      reason: 'now in block 103, not 100',
    });
    expect(decideTxFinality([at(100n, B, 110n)], 1, { blockNumber: '100' })).toMatchObject({ kind: 'final' });
  });

  it('no receipt on a quorum of nodes is gone; on fewer, undecided', () => {
    expect(decideTxFinality([none()], 1)).toEqual({ kind: 'gone', reason: '1 of 1 nodes have no receipt' });
    expect(decideTxFinality([none(), down, down], 2)).toMatchObject({ kind: 'undecided' });
  });
});
