import { type AttemptRecord } from '../attempt/attempt-record';
import { slicePlan } from '../attempt/attempt-slices';

/** The confirmed source transaction that executed the slice's primary call (its deposit), if any. */
export function sliceSourceTx(
  record: AttemptRecord,
  sliceId: string,
): { txHash: string; callIds: string[] } | null {
  const primary = slicePlan(record.prepared, sliceId)?.callIds[0];
  if (primary === undefined) return null;
  const tx = record.sourceTxs.find((t) => t.outcome === 'confirmed' && t.callIds.includes(primary));
  return tx === undefined ? null : { txHash: tx.txHash, callIds: tx.callIds };
}
