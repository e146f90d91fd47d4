import { isTerminalLegStatus, type SourceTokenPreview, type StatusLeg } from '@svc/contract';
import { formatRaw } from '../allocation/format-raw';
import { type AttemptRecord } from './attempt-record';
import { DIRECT_PROVIDER, type FlatSlice, slicePlan } from './attempt-slices';

export interface ChainNames {
  chainName(chainId: number): string;
}

/** One slice as the snapshot shows it; `legIndex` is its position in the flattened (leg, slice) list. */
export function statusLeg(
  state: AttemptRecord,
  { legIndex, leg, slice }: FlatSlice,
  names: ChainNames,
): StatusLeg {
  const progress = state.slices[legIndex];
  const plan = slicePlan(state.prepared, slice.sliceId);
  const sourceTx = confirmedSourceTx(state, slice.sourceChainId, plan?.callIds ?? []);
  return {
    legIndex,
    outputTargetId: leg.targetId,
    provider: slice.provider ?? DIRECT_PROVIDER,
    sourceChainId: slice.sourceChainId,
    sourceTokens: plan?.preview?.sourceTokens ?? (slice.noop ? [noopSourceToken({ leg, slice }, names)] : []),
    outputSymbol: leg.target.symbol,
    status: progress.status,
    txHash: sourceTx,
    expectedOutputAmount: slice.expectedOutputRaw,
    expectedOutputFormatted: formatRaw(BigInt(slice.expectedOutputRaw), leg.target.decimals),
    expectedOutputUsd: plan?.preview?.expectedOutputUsd ?? null,
    sourceChainTxHash: sourceTx,
    destinationChainTxHash: progress.destinationTxHash,
    settledAmount: progress.settledAmount,
    settledAmountBasis: progress.amountBasis,
    // Additive (issue 24, providers review N7): present only when the settled fill delivered another token than the
    // target, the native currency (zero address) for a WETH target Across paid as ETH.
    ...(progress.deliveredToken !== undefined ? { deliveredToken: progress.deliveredToken } : {}),
    errorCode: progress.errorCode,
    errorMessage: progress.errorMessage,
    trackingContext: slice.trackingContext,
    // Additive: the fees as quoted, on attempts prepared since they are recorded.
    ...(slice.fees !== undefined ? { fees: slice.fees } : {}),
    // Additive: present only on a leg whose funds went somewhere else than the recipient as the target.
    ...(progress.refund !== null ? { refund: progress.refund } : {}),
    // Additive (issue 24): a leg owed past the tracking limit says until when it is followed.
    ...(progress.followedUntil != null
      ? { followedUntil: new Date(progress.followedUntil).toISOString() }
      : {}),
    ...(progress.delayed !== null
      ? {
          delayed: {
            since: new Date(progress.delayed.since).toISOString(),
            expectedBy: new Date(progress.delayed.expectedBy).toISOString(),
            explorerUrl: progress.delayed.explorerUrl,
          },
        }
      : {}),
    // Additive (issue 24 item 3): a fill on chain, not yet final.
    ...(progress.awaitingConfirmation != null && !isTerminalLegStatus(progress.status)
      ? {
          awaitingConfirmations: {
            destinationChainTxHash: progress.awaitingConfirmation.destinationTxHash,
            blockNumber: progress.awaitingConfirmation.blockNumber,
            settledAmount: progress.awaitingConfirmation.settledAmount,
            seenAt: new Date(progress.awaitingConfirmation.since).toISOString(),
          },
        }
      : {}),
  };
}

/**
 * The confirmed source tx that executed the slice's calls, the first of `callIds` found (primary call first). A tx confirmed without call attribution
 * counts when it is the chain's only confirmed tx (one atomic batch executes every call).
 */
export function confirmedSourceTx(state: AttemptRecord, chainId: number, callIds: string[]): string | null {
  const confirmed = state.sourceTxs.filter((t) => t.chainId === chainId && t.outcome === 'confirmed');
  for (const id of callIds) {
    const executing = confirmed.find((t) => t.callIds.includes(id));
    if (executing !== undefined) return executing.txHash;
  }
  const only = confirmed.length === 1 ? confirmed[0] : undefined;
  return only !== undefined && only.callIds.length === 0 ? only.txHash : null;
}

/** A no-op slice is the target token already: what it moves is what it delivers. */
function noopSourceToken({ leg, slice }: Omit<FlatSlice, 'legIndex'>, names: ChainNames): SourceTokenPreview {
  return {
    chain: names.chainName(slice.sourceChainId),
    amount: formatRaw(BigInt(slice.expectedOutputRaw), leg.target.decimals),
    symbol: leg.target.symbol,
    address: leg.target.address,
    rawAmount: slice.expectedOutputRaw,
  };
}
