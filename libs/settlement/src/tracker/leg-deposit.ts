import { readReceipt } from '@svc/chains';
import { type AttemptSlice, hashKey } from '@svc/domain';
import { type DepositSelector, type ProviderAdapter, readTrackingContext } from '@svc/providers';
import { type Hash } from 'viem';
import { type TrackerDeps } from './tracker-deps';

/**
 * Which of the provider's deposits in the source transaction is this leg's (a batch can hold several): the n-th
 * deposit event of the leg's provider in the source receipt (`sliceDepositIndex`), its ref and terms as the adapter
 * reads them. The tracker asks it before each status poll; the audit asks it again to re-attribute a settled fill.
 */
export async function legDeposit(
  deps: Pick<TrackerDeps, 'chains' | 'receiptLogs'>,
  adapter: ProviderAdapter,
  slice: AttemptSlice,
  { sourceTxHash, depositIndex }: { sourceTxHash: string | null; depositIndex: number | null },
): Promise<DepositSelector | null> {
  if (sourceTxHash === null || depositIndex === null) return null;
  const key = hashKey(slice.sourceChainId, sourceTxHash);
  let logs = deps.receiptLogs.get(key);
  if (logs === undefined && deps.chains.has(slice.sourceChainId)) {
    const receipt = await readReceipt(deps.chains.client(slice.sourceChainId), {
      hash: sourceTxHash as Hash,
    });
    logs = receipt?.logs ?? [];
    if (receipt) deps.receiptLogs.set(key, logs);
  }
  // Only the provider's own contracts' events count (providers review N12): a look-alike shifts no index.
  const context = slice.trackingContext === null ? null : readTrackingContext(slice.trackingContext);
  const scope = context === null ? undefined : { chainId: slice.sourceChainId, context };
  return {
    index: depositIndex,
    ref: adapter.depositRefs(logs ?? [], scope)[depositIndex] ?? null,
    terms: adapter.depositTerms?.(logs ?? [], scope)[depositIndex] ?? null,
    cctpBurn: adapter.depositCctpBurns?.(logs ?? [], scope)[depositIndex] ?? null,
  };
}
