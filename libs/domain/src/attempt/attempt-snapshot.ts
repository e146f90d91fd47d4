import {
  API_VERSION,
  type AttemptSnapshot,
  type ChainAction,
  type ChainStatus,
  type PerChainStatus,
  type SettledOutput,
  type StatusLeg,
  isTerminalLegStatus,
} from '@svc/contract';
import { formatRaw } from '../allocation/format-raw';
import { type AttemptRecord } from './attempt-record';
import { type FlatSlice, flattenSlices } from './attempt-slices';
import { type ChainNames, statusLeg } from './status-leg';

/**
 * The spec's attempt snapshot (GET status, the submitted response, the base of every webhook body), computed
 * from the folded attempt alone.
 */
export function attemptSnapshot(state: AttemptRecord, names: ChainNames): AttemptSnapshot {
  const { prepared } = state;
  const slices = flattenSlices(prepared);
  const legs = slices.map((s) => statusLeg(state, s, names));
  return {
    apiVersion: API_VERSION,
    attemptId: prepared.attemptId,
    intentSessionId: prepared.intentSessionId,
    partnerId: prepared.partnerId,
    status: state.status,
    currentStatus: state.status,
    walletAddress: prepared.wallet,
    recipient: prepared.recipient,
    submittedAt: state.submittedAt,
    perChainStatus: prepared.chainActions.map((action) =>
      perChainStatus(
        state,
        action,
        legs.filter((l) => l.sourceChainId === action.chainId),
      ),
    ),
    settledOutputs: slices.flatMap((s, i) => settledOutput(state, s, legs[i])),
  };
}

function perChainStatus(state: AttemptRecord, action: ChainAction, legs: StatusLeg[]): PerChainStatus {
  const evidence = state.evidence.find((e) => e.chainId === action.chainId);
  return {
    chainId: action.chainId,
    provider: action.provider,
    submitMethod: action.submitMethod,
    atomicRequired: action.atomicRequired,
    status: chainStatus(state, action.chainId, legs),
    txHashes: evidence?.txHashes ?? [],
    bundleId: evidence?.bundleIds.at(-1) ?? null,
    legs,
    ...expiryReason(state, action.chainId),
  };
}

/** An expired attempt's chain whose wallet executed its calls in a transaction another attempt could own (ADR 0009). */
function expiryReason(state: AttemptRecord, chainId: number): Pick<PerChainStatus, 'expiryReason'> {
  if (state.status !== 'expired') return {};
  const txHashes = (state.expiredAmbiguous ?? []).filter((a) => a.chainId === chainId).map((a) => a.txHash);
  if (txHashes.length === 0) return {};
  return {
    expiryReason: {
      code: 'ambiguous_source_transaction',
      message:
        'the wallet executed these calls in a transaction that another open attempt of the same wallet could own too, ' +
        'and nobody reported it for this attempt before its evidence deadline',
      txHashes,
    },
  };
}

function chainStatus(state: AttemptRecord, chainId: number, legs: StatusLeg[]): ChainStatus {
  const txs = state.sourceTxs.filter((t) => t.chainId === chainId);
  const evidence = state.evidence.find((e) => e.chainId === chainId);
  // An expired attempt had no evidence and no deposit found: no chain of it is still awaiting anything (issue 25 item 3).
  if (state.status === 'expired') return 'expired';
  const ended = legs.length > 0 && legs.every((l) => isTerminalLegStatus(l.status));
  if (ended && legs.every((l) => l.status === 'settled')) return 'settled';
  const confirmed = txs.some((t) => t.outcome === 'confirmed');
  const reverted = new Set(txs.filter((t) => t.outcome === 'reverted').map((t) => t.txHash));
  const reported = evidence?.txHashes ?? [];
  if (!confirmed && reverted.size > 0 && reported.every((h) => reverted.has(h))) return 'reverted';
  if (ended) return 'failed';
  if (confirmed) return 'confirmed';
  return evidence === undefined ? 'awaiting_evidence' : 'submitted';
}

/**
 * What a settled slice put in the recipient wallet, in display units of the target token. Its tx is the fill
 * on the destination chain, or for a no-op the transfer itself; empty when the tokens already were there.
 */
function settledOutput(
  state: AttemptRecord,
  { legIndex, leg, slice }: FlatSlice,
  shown: StatusLeg,
): SettledOutput[] {
  const progress = state.slices[legIndex];
  if (progress.status !== 'settled' || progress.settledAmount === null || progress.amountBasis === null)
    return [];
  const transfer = slice.noop ? shown.txHash : null;
  return [
    {
      chainId: leg.target.chainId,
      symbol: leg.target.symbol,
      amount: formatRaw(BigInt(progress.settledAmount), leg.target.decimals),
      amountBasis: progress.amountBasis,
      txHash: progress.destinationTxHash ?? transfer ?? '',
    },
  ];
}
