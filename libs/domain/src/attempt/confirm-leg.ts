import { type AmountBasis, isTerminalLegStatus } from '@svc/contract';
import { type TxFinality } from '../tracking/tx-finality';
import { type AttemptEvent } from './attempt.events';
import { AttemptInputError } from './attempt-input.error';
import { type AttemptRecord, type SliceProgress } from './attempt-record';
import { withLifecycle } from './advance-lifecycle';
import { flattenSlices } from './attempt-slices';
import { sliceSourceTx } from '../tracking/slice-source-tx';

/**
 * What the tracker read of a filled leg's transactions under the chains' confirmation policies (issue 24 item 3):
 * the fill on the target chain and, when there is one to check, the leg's source transaction on its chain.
 */
export interface LegFinality {
  fill: TxFinality;
  source: { chainId: number; txHash: string; finality: TxFinality } | null;
}

/** A fill the chain shows delivering the leg, before it is final enough to credit. */
export interface FilledLeg {
  sliceId: string;
  destinationTxHash: string;
  settledAmount: string;
  amountBasis: AmountBasis;
  at: number;
  /** The token delivered when it is not the target (issue 24 N7: the native currency for an unwrapped WETH). */
  deliveredToken?: string;
  /** The deposit key the fill was claimed under (issue 24 item 1), carried to LegFillSeen and LegSettled. */
  depositKey?: string;
}

/**
 * The events of a fill that delivers the leg (at least its minimum), under its finality:
 * - fill and source final (a quorum of nodes, at or below the policy's final block): LegSettled, with the block;
 * - the fill seen but not final: LegFillSeen once per (fill, block), the leg stays open (pending);
 * - the fill or the source gone from where it was seen (a reorganisation): LegFillReorged for a fill that was
 *   awaiting, SourceTransactionReorged for the source, and the leg goes back to tracking;
 * - undecided (nodes disagree): nothing yet.
 * `finality` undefined: the caller could not read it (a fill with no hash, an unreadable chain): settled as before.
 */
export function filledLegEvents(
  state: AttemptRecord,
  slice: SliceProgress,
  fill: FilledLeg,
  finality: LegFinality | undefined,
): AttemptEvent[] {
  const { sliceId, destinationTxHash, settledAmount, amountBasis, at } = fill;
  const delivered = {
    ...(fill.deliveredToken !== undefined ? { deliveredToken: fill.deliveredToken } : {}),
    ...(fill.depositKey !== undefined ? { depositKey: fill.depositKey } : {}),
  };
  if (finality === undefined) {
    return [
      {
        type: 'LegSettled',
        data: { sliceId, destinationTxHash, settledAmount, amountBasis, at, ...delivered },
      },
    ];
  }
  const awaiting = slice.awaitingConfirmation ?? null;
  const sameFill = awaiting !== null && awaiting.destinationTxHash === destinationTxHash;
  const events: AttemptEvent[] = [];
  const { source } = finality;
  if (source !== null && source.finality.kind === 'gone') {
    const recorded = state.sourceTxs.some((t) => t.chainId === source.chainId && t.txHash === source.txHash);
    if (recorded) {
      events.push({
        type: 'SourceTransactionReorged',
        data: { chainId: source.chainId, txHash: source.txHash, reason: source.finality.reason, at },
      });
    }
  }
  const sourceGone = source !== null && source.finality.kind === 'gone';
  const fillFinality = finality.fill;
  if (fillFinality.kind === 'gone' || (sourceGone && awaiting !== null)) {
    if (awaiting !== null) {
      const reason =
        fillFinality.kind === 'gone' ? fillFinality.reason : 'its source transaction was reorganised out';
      events.push({
        type: 'LegFillReorged',
        data: { sliceId, destinationTxHash: awaiting.destinationTxHash, reason, at },
      });
    }
    return events;
  }
  if (sourceGone || fillFinality.kind === 'undecided') return events;
  const block = { blockNumber: fillFinality.blockNumber, blockHash: fillFinality.blockHash };
  if (awaiting !== null && (!sameFill || awaiting.blockHash !== block.blockHash)) {
    // Another fill, or the same one re-mined in another block: what was awaited is gone first.
    events.push({
      type: 'LegFillReorged',
      data: {
        sliceId,
        destinationTxHash: awaiting.destinationTxHash,
        reason: sameFill ? `re-mined in block ${block.blockNumber}` : `replaced by fill ${destinationTxHash}`,
        at,
      },
    });
  }
  const sourceFinal = source === null || source.finality.kind === 'final';
  if (fillFinality.kind === 'final' && sourceFinal) {
    events.push({
      type: 'LegSettled',
      data: { sliceId, destinationTxHash, settledAmount, amountBasis, at, ...block, ...delivered },
    });
    return events;
  }
  const stillAwaited = awaiting !== null && sameFill && awaiting.blockHash === block.blockHash;
  if (!stillAwaited) {
    events.push({
      type: 'LegFillSeen',
      data: { sliceId, destinationTxHash, settledAmount, amountBasis, at, ...block, ...delivered },
    });
  }
  return events;
}

/**
 * ConfirmLeg: the tracker read again the fill a leg awaits confirmations for (LegFillSeen), and its source.
 * Final: the leg settles with the amount seen (and the attempt, when it was the last); gone: back to tracking.
 */
export function confirmLeg(
  state: AttemptRecord,
  { sliceId, finality, now }: { sliceId: string; finality: LegFinality; now: number },
): AttemptEvent[] {
  const slice = state.slices.find((s) => s.sliceId === sliceId);
  if (slice === undefined) throw new AttemptInputError(`no slice ${sliceId}`);
  const awaiting = slice.awaitingConfirmation ?? null;
  // Open, awaiting: `pending` for a provider leg, `awaiting_source` for a no-op leg delivered by its own transfer.
  if (isTerminalLegStatus(slice.status) || awaiting === null) return [];
  const { destinationTxHash, settledAmount, amountBasis, deliveredToken, depositKey } = awaiting;
  const events = filledLegEvents(
    state,
    slice,
    {
      sliceId,
      destinationTxHash,
      settledAmount,
      amountBasis,
      at: now,
      ...(deliveredToken !== undefined ? { deliveredToken } : {}),
      ...(depositKey !== undefined ? { depositKey } : {}),
    },
    finality,
  );
  return events.length === 0 ? [] : withLifecycle(state, events, now);
}

/**
 * RecheckSettledLeg (ADR 0008): within the re-check window after `settled`, the tracker read a settled leg's fill
 * again. Gone from the block it settled in: SettledFillVanished, recorded once; the attempt stays settled (terminal:
 * partners were told), the event is the audit entry, and the tracker raises the alarm. Anything else: nothing.
 */
export function recheckSettledLeg(
  state: AttemptRecord,
  { sliceId, fill, now }: { sliceId: string; fill: TxFinality; now: number },
): AttemptEvent[] {
  const slice = state.slices.find((s) => s.sliceId === sliceId);
  if (slice === undefined) throw new AttemptInputError(`no slice ${sliceId}`);
  if (slice.status !== 'settled' || slice.destinationTxHash === null || slice.vanished != null) return [];
  if (fill.kind !== 'gone') return [];
  return [
    {
      type: 'SettledFillVanished',
      data: { sliceId, destinationTxHash: slice.destinationTxHash, reason: fill.reason, at: now },
    },
  ];
}

/**
 * The leg's source transaction to check with its fill: the confirmed one that executed its deposit, if known, with
 * the block it was confirmed in (null on records of an earlier build).
 */
export function legSourceTx(
  state: AttemptRecord,
  sliceId: string,
): { chainId: number; txHash: string; blockNumber: string | null } | null {
  const tx = sliceSourceTx(state, sliceId);
  const slice = flattenSlices(state.prepared).find((f) => f.slice.sliceId === sliceId)?.slice;
  if (tx === null || slice === undefined) return null;
  const chainId = slice.sourceChainId;
  const record = state.sourceTxs.find((t) => t.chainId === chainId && t.txHash === tx.txHash);
  return { chainId, txHash: tx.txHash, blockNumber: record?.blockNumber ?? null };
}
