/**
 * What one node said of a transaction (libs/chains readTxFinality): its receipt's block (null: the node has no
 * receipt) and the node's final block under the chain's confirmation policy; or that it did not answer.
 */
export type NodeTxView =
  | {
      ok: true;
      receipt: { blockNumber: bigint; blockHash: string; success: boolean } | null;
      finalBlock: bigint;
    }
  | { ok: false; error: string };

/** Block numbers are base-10 strings, as stored in events. */
export type TxFinality =
  /** A quorum of nodes has the transaction in this block, and that block is at or below each one's final block. */
  | { kind: 'final'; blockNumber: string; blockHash: string }
  /** A quorum has it in this block, but fewer than a quorum count that block final yet. */
  | { kind: 'awaiting'; blockNumber: string; blockHash: string }
  /**
   * A quorum says it is not where it was seen: no receipt at all, or a receipt in another block than `seenIn` (a
   * reorganisation took it out, or moved it).
   */
  | { kind: 'gone'; reason: string }
  /** No quorum either way (nodes disagree, or too few answered): nothing is decided, it is read again later. */
  | { kind: 'undecided'; reason: string };

/**
 * The quorum rule over the nodes' views of one transaction (issue 24 item 3). `seenIn`: the block the transaction
 * was recorded in before (LegFillSeen: its hash; a confirmed source transaction: its number), so a receipt in another
 * block is a reorganisation, not the same transaction. With one node and quorum 1 this is that node's word.
 */
export function decideTxFinality(
  views: readonly NodeTxView[],
  quorum: number,
  seenIn: { blockHash: string } | { blockNumber: string } | null = null,
): TxFinality {
  const answered = views.flatMap((v) => (v.ok ? [v] : []));
  const byBlock = new Map<string, { blockNumber: bigint; final: number; count: number }>();
  for (const { receipt, finalBlock } of answered) {
    if (receipt === null) continue;
    const key = receipt.blockHash.toLowerCase();
    const entry = byBlock.get(key) ?? { blockNumber: receipt.blockNumber, final: 0, count: 0 };
    entry.count++;
    if (receipt.blockNumber <= finalBlock) entry.final++;
    byBlock.set(key, entry);
  }
  const agreed = [...byBlock.entries()].find(([, entry]) => entry.count >= quorum);
  const missing = answered.filter((v) => v.receipt === null).length;
  if (agreed !== undefined) {
    const [blockHash, { blockNumber, final }] = agreed;
    if (seenIn !== null && 'blockHash' in seenIn && seenIn.blockHash.toLowerCase() !== blockHash) {
      return { kind: 'gone', reason: `now in block ${blockNumber} (${blockHash}), not ${seenIn.blockHash}` };
    }
    if (seenIn !== null && 'blockNumber' in seenIn && seenIn.blockNumber !== blockNumber.toString()) {
      return { kind: 'gone', reason: `now in block ${blockNumber}, not ${seenIn.blockNumber}` };
    }
    const at = { blockNumber: blockNumber.toString(), blockHash };
    return final >= quorum ? { kind: 'final', ...at } : { kind: 'awaiting', ...at };
  }
  if (missing >= quorum)
    return { kind: 'gone', reason: `${missing} of ${views.length} nodes have no receipt` };
  return {
    kind: 'undecided',
    reason: `no ${quorum} of ${views.length} nodes agree (${answered.length} answered, ${byBlock.size} blocks)`,
  };
}
