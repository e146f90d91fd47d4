import { isTerminalLegStatus } from '@svc/contract';
import {
  type AttemptRecord,
  flattenSlices,
  type LegFinality,
  legSourceTx,
  type NodeTxView,
} from '@svc/domain';

/**
 * Block-driven confirmation (ADR 0008 "Confirmation is block-driven"): the pure rules of the tracker's
 * ConfirmationWatcher. A leg whose fill awaits confirmations (LegFillSeen) waits for a head of its chains; a head is
 * looked at once per chain, and only the legs whose depth it reaches (or whose chain it reorganised) are checked.
 */

/** An open leg whose fill awaits confirmations, with where its fill (and its source transaction) was seen. */
export interface WaitingLeg {
  attemptId: string;
  sliceId: string;
  fill: { chainId: number; txHash: string; blockNumber: bigint; blockHash: string };
  /** The leg's source transaction to check with it (null: none the service can read); blockNumber null on old records. */
  source: { chainId: number; txHash: string; blockNumber: bigint | null } | null;
}

/** The legs of an attempt waiting for confirmations, on chains the service reads (the others settle on what was read). */
export function waitingLegs(record: AttemptRecord, readable: (chainId: number) => boolean): WaitingLeg[] {
  const flat = flattenSlices(record.prepared);
  const legs: WaitingLeg[] = [];
  for (const slice of record.slices) {
    const awaiting = slice.awaitingConfirmation ?? null;
    if (awaiting === null || isTerminalLegStatus(slice.status)) continue;
    const leg = flat.find((f) => f.slice.sliceId === slice.sliceId)?.leg;
    if (leg === undefined || !readable(leg.target.chainId)) continue;
    const source = legSourceTx(record, slice.sliceId);
    legs.push({
      attemptId: record.prepared.attemptId,
      sliceId: slice.sliceId,
      fill: {
        chainId: leg.target.chainId,
        txHash: awaiting.destinationTxHash,
        blockNumber: BigInt(awaiting.blockNumber),
        blockHash: awaiting.blockHash.toLowerCase(),
      },
      source:
        source === null || !readable(source.chainId)
          ? null
          : {
              chainId: source.chainId,
              txHash: source.txHash,
              blockNumber: source.blockNumber === null ? null : BigInt(source.blockNumber),
            },
    });
  }
  return legs;
}

/** A chain head as the watcher reads it (the chain's first node, `latest`). */
export interface Head {
  number: bigint;
  hash: string;
  parentHash: string;
}

/**
 * How a chain's head moved since the last one looked at:
 * - `same`: nothing new;
 * - `advanced`: the next block on top of the last one, or the first head seen;
 * - `gap`: several blocks later: whether the last head is still an ancestor needs one read (`checkAt`);
 * - `reorged`: the last head is no longer on the chain (another block at its height, a lower head, or a parent that
 *   is not it): every waiting leg on the chain is checked where it was seen.
 */
export type HeadChange =
  | { kind: 'same' }
  | { kind: 'advanced' }
  | { kind: 'gap'; checkAt: bigint; expectHash: string }
  | { kind: 'reorged' };

export function headChange(last: Head | null, next: Head): HeadChange {
  if (last === null) return { kind: 'advanced' };
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (next.number === last.number) return same(next.hash, last.hash) ? { kind: 'same' } : { kind: 'reorged' };
  if (next.number < last.number) return { kind: 'reorged' };
  if (next.number === last.number + 1n)
    return same(next.parentHash, last.hash) ? { kind: 'advanced' } : { kind: 'reorged' };
  return { kind: 'gap', checkAt: last.number, expectHash: last.hash };
}

/**
 * Which waiting legs the chains' heads make worth checking now: the fill at or below its chain's final block (the
 * head's, under the chain's policy) and the source transaction at or below its chain's (a source of an old record,
 * without a block, is read with the fill); or any leg on a chain whose head reorganised (its blocks may have
 * changed). A chain whose final block is not known yet makes nothing due. Legs not due are not read at all.
 */
export function legsDue(
  waiting: readonly WaitingLeg[],
  heads: { finalBlocks: ReadonlyMap<number, bigint>; reorged: ReadonlySet<number> },
): WaitingLeg[] {
  const covered = (chainId: number, blockNumber: bigint) => {
    const final = heads.finalBlocks.get(chainId);
    return final !== undefined && blockNumber <= final;
  };
  return waiting.filter((leg) => {
    const { fill, source } = leg;
    if (heads.reorged.has(fill.chainId) || (source !== null && heads.reorged.has(source.chainId)))
      return true;
    if (!covered(fill.chainId, fill.blockNumber)) return false;
    return source === null || source.blockNumber === null || covered(source.chainId, source.blockNumber);
  });
}

/** One node's blocks at the heights asked (null: the node has no block there) and its final block; or its failure. */
export type NodeBlocks =
  | {
      ok: true;
      finalBlock: bigint;
      blocks: ReadonlyMap<bigint, { hash: string; transactions: ReadonlySet<string> } | null>;
    }
  | { ok: false; error: string };

/**
 * Each node's view of a transaction from its block at the height the transaction was seen at, in the shape the quorum
 * rule (libs/domain decideTxFinality) reads: in that block (same hash: same transactions), or no receipt (not there,
 * whether gone or moved: both are a reorganisation for a fill or source seen at that height). The block's hash commits
 * to its transactions, so one block read per height and node serves every leg seen in it. `success` is not read by
 * the rule (a reverted fill was never seen).
 */
export function txViewsAt(nodes: readonly NodeBlocks[], txHash: string, height: bigint): NodeTxView[] {
  const hash = txHash.toLowerCase();
  return nodes.map((node) => {
    if (!node.ok) return node;
    const block = node.blocks.get(height) ?? null;
    const receipt =
      block !== null && block.transactions.has(hash)
        ? { blockNumber: height, blockHash: block.hash.toLowerCase(), success: true }
        : null;
    return { ok: true, finalBlock: node.finalBlock, receipt };
  });
}

/**
 * Whether a leg's finality can change its attempt (ConfirmLeg): the fill and its source final (settled), or either
 * gone (reorganised). Awaiting or undecided changes nothing: no stream is loaded, the leg waits for the next head.
 */
export function mayDecide(finality: LegFinality): boolean {
  const { fill, source } = finality;
  if (fill.kind === 'gone' || source?.finality.kind === 'gone') return true;
  return fill.kind === 'final' && (source === null || source.finality.kind === 'final');
}
