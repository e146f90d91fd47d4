import {
  type AttemptRecord,
  flattenSlices,
  transactionClaimDecider,
  transactionClaimStreamId,
} from '@svc/domain';
import { type EventStore, type QuarantinedEvent, type RecordedEvent } from '@svc/event-store';
import { foldStream } from './stored-events';

/** The claim stream of one transaction the attempt names, and who holds it (null: nobody claimed it). */
export interface ClaimRead {
  chainId: number;
  txHash: string;
  streamId: string;
  owner: string | null;
  events: RecordedEvent[];
  /** The claim stream holds an event the claim decider does not fold (a finding): its owner cannot be read. */
  refused: QuarantinedEvent | null;
}

/**
 * The claims of every transaction the attempt names: each reported or classified source transaction and each fill a
 * leg settled with or rejected. Only those the service claimed have a stream; the others read as unclaimed.
 */
export async function readClaims(store: EventStore, record: AttemptRecord): Promise<ClaimRead[]> {
  const wanted = new Map<string, { chainId: number; txHash: string }>();
  const add = (chainId: number, txHash: string | null) => {
    if (txHash)
      wanted.set(transactionClaimStreamId(chainId, txHash), { chainId, txHash: txHash.toLowerCase() });
  };
  for (const evidence of record.evidence) for (const hash of evidence.txHashes) add(evidence.chainId, hash);
  for (const tx of record.sourceTxs) add(tx.chainId, tx.txHash);
  for (const { legIndex, leg } of flattenSlices(record.prepared)) {
    const progress = record.slices[legIndex];
    add(leg.target.chainId, progress.destinationTxHash);
    for (const rejected of progress.rejectedFills) add(leg.target.chainId, rejected);
  }
  return Promise.all(
    [...wanted].map(async ([streamId, tx]) => {
      const events = await store.readStream(streamId);
      const folded = foldStream(transactionClaimDecider, events);
      return { ...tx, streamId, owner: folded.state?.owner ?? null, events, refused: folded.refused };
    }),
  );
}
