import { readTxFinality } from '@svc/chains';
import { isTerminalLegStatus } from '@svc/contract';
import {
  type AttemptRecord,
  decideTxFinality,
  flattenSlices,
  type LegFinality,
  legSourceTx,
  type TxFinality,
} from '@svc/domain';
import { decideAndAppend, loadAttempt } from '../attempt-store/attempt-stream';
import { type TrackerDeps } from './tracker-deps';

/**
 * A filled leg's finality under the chains' confirmation policies and quorums (issue 24 item 3): its fill on the
 * target chain, compared with the block it was seen in before (LegFillSeen), and the leg's source transaction on
 * its chain. Undefined when there is nothing the service can check: no fill hash, or a target chain it cannot read
 * (such a fill settles as before, on what was read).
 */
export async function legFinality(
  deps: Pick<TrackerDeps, 'chains'>,
  record: AttemptRecord,
  sliceId: string,
  fillTxHash: string | null,
): Promise<LegFinality | undefined> {
  const flat = flattenSlices(record.prepared).find((f) => f.slice.sliceId === sliceId);
  if (fillTxHash === null || flat === undefined || !deps.chains.has(flat.leg.target.chainId))
    return undefined;
  const awaiting = record.slices.find((s) => s.sliceId === sliceId)?.awaitingConfirmation ?? null;
  const seenIn = awaiting !== null && awaiting.destinationTxHash === fillTxHash ? awaiting : null;
  const fill = await txFinality(deps, flat.leg.target.chainId, fillTxHash, seenIn);
  const source = legSourceTx(record, sliceId);
  if (source === null || !deps.chains.has(source.chainId)) return { fill, source: null };
  const { chainId, txHash, blockNumber } = source;
  // Where the source transaction was confirmed: a quorum now having it in another block is a reorganisation.
  const minedIn = blockNumber === null ? null : { blockNumber };
  return { fill, source: { chainId, txHash, finality: await txFinality(deps, chainId, txHash, minedIn) } };
}

/** One transaction's finality on every node of its chain, decided by the chain's quorum. */
export async function txFinality(
  deps: Pick<TrackerDeps, 'chains'>,
  chainId: number,
  txHash: string,
  seenIn: { blockHash: string } | { blockNumber: string } | null,
): Promise<TxFinality> {
  const { views, quorum } = await readTxFinality(deps.chains, { chainId, txHash });
  return decideTxFinality(views, quorum, seenIn);
}

/**
 * Legs whose fill awaits confirmations are read again, each run of a tracking run on its own (in the tracker the
 * ConfirmationWatcher does it per head instead): final, the leg settles (and the attempt when it
 * was the last); gone from its block, it goes back to tracking (LegFillReorged).
 */
export async function confirmAwaitingLegs(
  deps: TrackerDeps,
  record: AttemptRecord,
  now: number,
): Promise<AttemptRecord> {
  let current = record;
  for (const slice of record.slices) {
    const awaiting = slice.awaitingConfirmation ?? null;
    if (isTerminalLegStatus(slice.status) || awaiting === null) continue;
    const finality = await legFinality(deps, current, slice.sliceId, awaiting.destinationTxHash);
    if (finality === undefined) continue;
    current =
      (await decideAndAppend(deps.store, record.prepared.attemptId, `confirm:${slice.sliceId}`, {
        type: 'ConfirmLeg',
        data: { sliceId: slice.sliceId, finality, now },
      })) ?? current;
  }
  return current;
}

/**
 * ADR 0008: reads again each settled leg's fill of a settled attempt, where it settled; gone from that block, the
 * leg's SettledFillVanished is recorded (once). Returns the legs recorded now, for the alarm.
 */
export async function recheckSettledFills(
  deps: TrackerDeps,
  attemptId: string,
  now: number,
): Promise<{ sliceId: string; destinationTxHash: string; reason: string }[]> {
  const loaded = await loadAttempt(deps.store, attemptId, null);
  if (loaded === null) return [];
  const vanished: { sliceId: string; destinationTxHash: string; reason: string }[] = [];
  let record = loaded.record;
  for (const flat of flattenSlices(record.prepared)) {
    const slice = record.slices.find((s) => s.sliceId === flat.slice.sliceId);
    const block = slice?.settledBlock ?? null;
    if (
      slice === undefined ||
      slice.status !== 'settled' ||
      block === null ||
      slice.destinationTxHash === null
    ) {
      continue;
    }
    if ((slice.vanished ?? null) !== null || !deps.chains.has(flat.leg.target.chainId)) continue;
    const fill = await txFinality(deps, flat.leg.target.chainId, slice.destinationTxHash, block);
    if (fill.kind !== 'gone') continue;
    const after = await decideAndAppend(deps.store, attemptId, `recheck:${slice.sliceId}`, {
      type: 'RecheckSettledLeg',
      data: { sliceId: slice.sliceId, fill, now },
    });
    const recorded = after?.slices.find((s) => s.sliceId === slice.sliceId)?.vanished ?? null;
    if (after !== null && recorded !== null) {
      record = after;
      vanished.push({
        sliceId: slice.sliceId,
        destinationTxHash: slice.destinationTxHash,
        reason: fill.reason,
      });
    }
  }
  return vanished;
}
