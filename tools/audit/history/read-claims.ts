import {
  type AttemptRecord,
  fillClaimStreamId,
  flattenSlices,
  transactionClaimDecider,
  transactionClaimStreamId,
} from '@svc/domain';
import { type EventStore, type QuarantinedEvent, type RecordedEvent } from '@svc/event-store';
import { foldStream } from './stored-events';

/**
 * The claim stream of one transaction the attempt names, and who holds it (null: nobody claimed it); or, with a
 * `depositKey`, the claim of one deposit's delivery in a fill (issue 24 item 1: `fillClaimStreamId`).
 */
export interface ClaimRead {
  chainId: number;
  txHash: string;
  /** null: the transaction's own claim stream (`txclaim-<chainId>-<txHash>`). */
  depositKey: string | null;
  streamId: string;
  owner: string | null;
  events: RecordedEvent[];
  /** The claim stream holds an event the claim decider does not fold (a finding): its owner cannot be read. */
  refused: QuarantinedEvent | null;
}

/**
 * The claims of every transaction the attempt names: each reported or classified source transaction and each fill a
 * leg settled with or rejected, and the deposit claim each settled leg names (LegSettled's `depositKey`). Only those
 * the service claimed have a stream; the others read as unclaimed.
 */
export async function readClaims(store: EventStore, record: AttemptRecord): Promise<ClaimRead[]> {
  const wanted = new Map<string, { chainId: number; txHash: string; depositKey: string | null }>();
  const add = (chainId: number, txHash: string | null) => {
    if (txHash)
      wanted.set(transactionClaimStreamId(chainId, txHash), {
        chainId,
        txHash: txHash.toLowerCase(),
        depositKey: null,
      });
  };
  for (const evidence of record.evidence) for (const hash of evidence.txHashes) add(evidence.chainId, hash);
  for (const tx of record.sourceTxs) add(tx.chainId, tx.txHash);
  for (const { legIndex, leg } of flattenSlices(record.prepared)) {
    const progress = record.slices[legIndex];
    add(leg.target.chainId, progress.destinationTxHash);
    for (const rejected of progress.rejectedFills) add(leg.target.chainId, rejected);
    const { depositKey } = progress;
    if (depositKey !== undefined && progress.destinationTxHash !== null) {
      const txHash = progress.destinationTxHash.toLowerCase();
      const chainId = leg.target.chainId;
      wanted.set(fillClaimStreamId(chainId, txHash, depositKey), { chainId, txHash, depositKey });
    }
  }
  return Promise.all([...wanted].map(([streamId, claim]) => readClaim(store, streamId, claim)));
}

/** One claim stream, folded with the claim decider as the service folds it. */
export async function readClaim(
  store: EventStore,
  streamId: string,
  claim: { chainId: number; txHash: string; depositKey: string | null },
): Promise<ClaimRead> {
  const events = await store.readStream(streamId);
  const folded = foldStream(transactionClaimDecider, events);
  return { ...claim, streamId, owner: folded.state?.owner ?? null, events, refused: folded.refused };
}
