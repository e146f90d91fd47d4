import { type AttemptStatus, isTerminalAttemptStatus } from '@svc/contract';
import { type AttemptEvent, type AttemptPreparedData, type ReportedChainResult } from './attempt.events';
import {
  type AttemptRecord,
  type AttemptState,
  type ChainEvidence,
  type SliceProgress,
  type SourceTxOutcome,
} from './attempt-record';
import { flattenSlices } from './attempt-slices';

export const initialAttemptState: AttemptState = { status: 'none' };

export function evolveAttempt(state: AttemptState, event: AttemptEvent): AttemptState {
  if (state.status !== 'none') return evolveAttemptRecord(state, event);
  return event.type === 'AttemptPrepared' ? prepared(event.data) : state;
}

/** evolveAttempt for an attempt that exists: what decide folds its own events with. */
export function evolveAttemptRecord(state: AttemptRecord, event: AttemptEvent): AttemptRecord {
  switch (event.type) {
    case 'AttemptPrepared':
      return state;
    case 'EvidenceReported': {
      const { reportId, reportedAt, submittedAt, chainResults } = event.data;
      return {
        ...state,
        reportIds: [...state.reportIds, reportId],
        submittedAt: state.submittedAt ?? submittedAt ?? reportedAt,
        evidence: chainResults.reduce(mergeEvidence, state.evidence),
      };
    }
    case 'AuthorizationSigned':
      return { ...state, signature: state.signature ?? event.data };
    case 'SourceTransactionConfirmed':
      return classify(state, { ...event.data, outcome: 'confirmed' });
    case 'SourceTransactionReverted':
      return classify(state, { ...event.data, outcome: 'reverted', callIds: [] });
    case 'SourceTransactionMismatched':
      return classify(state, { ...event.data, outcome: 'mismatched', callIds: [] });
    case 'SourceTransactionUnknown':
      return classify(state, { ...event.data, outcome: 'unknown', callIds: [] });
    case 'LegDelayed': {
      const { sliceId, since, expectedBy, explorerUrl } = event.data;
      return updateSlice(state, sliceId, { delayed: { since, expectedBy, explorerUrl } });
    }
    case 'LegFillRejected': {
      const slice = state.slices.find((s) => s.sliceId === event.data.sliceId);
      const hash = event.data.destinationTxHash ?? '';
      if (slice === undefined || slice.rejectedFills.includes(hash)) return state;
      return updateSlice(state, slice.sliceId, { rejectedFills: [...slice.rejectedFills, hash] });
    }
    case 'LegPending':
      return updateSlice(state, event.data.sliceId, {
        status: 'pending',
        providerStatus: event.data.providerStatus,
        updatedAt: event.data.at,
        ...(event.data.fillDeadlineAt != null ? { fillDeadlineAt: event.data.fillDeadlineAt } : {}),
      });
    case 'LegOwed':
      return updateSlice(state, event.data.sliceId, { followedUntil: event.data.until });
    case 'LegSettled': {
      const { sliceId, destinationTxHash, settledAmount, amountBasis, at, blockNumber, blockHash } =
        event.data;
      return updateSlice(state, sliceId, {
        status: 'settled',
        destinationTxHash,
        settledAmount,
        amountBasis,
        ...(event.data.deliveredToken !== undefined ? { deliveredToken: event.data.deliveredToken } : {}),
        ...(event.data.depositKey !== undefined ? { depositKey: event.data.depositKey } : {}),
        updatedAt: at,
        awaitingConfirmation: null,
        ...(blockNumber !== undefined && blockHash !== undefined
          ? { settledBlock: { blockNumber, blockHash } }
          : {}),
      });
    }
    case 'LegFillSeen': {
      const { sliceId, destinationTxHash, settledAmount, amountBasis, blockNumber, blockHash, at } =
        event.data;
      return updateSlice(state, sliceId, {
        awaitingConfirmation: {
          destinationTxHash,
          settledAmount,
          amountBasis,
          blockNumber,
          blockHash,
          since: at,
          ...(event.data.deliveredToken !== undefined ? { deliveredToken: event.data.deliveredToken } : {}),
          ...(event.data.depositKey !== undefined ? { depositKey: event.data.depositKey } : {}),
        },
      });
    }
    case 'LegFillReorged':
      return updateSlice(state, event.data.sliceId, { awaitingConfirmation: null });
    case 'SourceTransactionReorged': {
      const { chainId, txHash } = event.data;
      // Forgotten, so the tracker reads it again: re-mined, it is confirmed (and claimed) again.
      return {
        ...state,
        sourceTxs: state.sourceTxs.filter((t) => !(t.chainId === chainId && t.txHash === txHash)),
      };
    }
    case 'SettledFillVanished': {
      const { sliceId, destinationTxHash, reason, at } = event.data;
      return updateSlice(state, sliceId, { vanished: { destinationTxHash, reason, at } });
    }
    case 'LegFailed': {
      const { sliceId, errorCode, errorMessage, refundTxHash, at } = event.data;
      const failed = updateSlice(state, sliceId, {
        status: 'failed',
        errorCode,
        errorMessage,
        refundTxHash,
        updatedAt: at,
        refund: event.data.refund ?? null,
        ...(event.data.settledAmount != null
          ? {
              settledAmount: event.data.settledAmount,
              destinationTxHash: event.data.destinationTxHash ?? null,
              amountBasis: event.data.amountBasis ?? null,
            }
          : {}),
      });
      return { ...failed, firstSliceFailure: state.firstSliceFailure ?? { errorCode, errorMessage } };
    }
    case 'AttemptWalletSubmitted':
      return moveTo(state, 'wallet_submitted', { walletSubmittedAt: event.data.at });
    case 'AttemptProviderPending':
      return moveTo(state, 'provider_pending', { providerPendingAt: event.data.at });
    case 'AttemptSettled':
      return moveTo(state, 'settled', { endedAt: event.data.at });
    case 'AttemptFailed': {
      const { errorCode, errorMessage, at } = event.data;
      return moveTo(state, 'failed', { endedAt: at, failure: { errorCode, errorMessage } });
    }
    case 'AttemptExpired': {
      const ambiguous = event.data.ambiguousSources ?? [];
      return moveTo(state, 'expired', {
        endedAt: event.data.at,
        ...(ambiguous.length > 0 ? { expiredAmbiguous: ambiguous } : {}),
      });
    }
    default:
      // A type this build does not know (a newer build's, during a rolling deploy) says nothing it can read.
      return state;
  }
}

function prepared(data: AttemptPreparedData): AttemptRecord {
  return {
    status: 'prepared',
    prepared: data,
    reportIds: [],
    submittedAt: null,
    evidence: [],
    signature: null,
    sourceTxs: [],
    slices: flattenSlices(data).map(({ slice }) => ({
      sliceId: slice.sliceId,
      status: 'awaiting_source',
      providerStatus: null,
      destinationTxHash: null,
      settledAmount: null,
      amountBasis: null,
      refundTxHash: null,
      errorCode: null,
      errorMessage: null,
      updatedAt: null,
      refund: null,
      rejectedFills: [],
      delayed: null,
    })),
    firstSliceFailure: null,
    walletSubmittedAt: null,
    providerPendingAt: null,
    endedAt: null,
    failure: null,
  };
}

/** Terminal states never change, whatever is appended after them. */
function moveTo(state: AttemptRecord, status: AttemptStatus, changes: Partial<AttemptRecord>): AttemptRecord {
  return isTerminalAttemptStatus(state.status) ? state : { ...state, ...changes, status };
}

function mergeEvidence(evidence: ChainEvidence[], result: ReportedChainResult): ChainEvidence[] {
  const known = evidence.find((e) => e.chainId === result.chainId);
  const base = known ?? { chainId: result.chainId, txHashes: [], bundleIds: [] };
  const merged: ChainEvidence = {
    chainId: result.chainId,
    txHashes: union(base.txHashes, result.txHashes),
    bundleIds: union(base.bundleIds, result.bundleId === null ? [] : [result.bundleId]),
  };
  return known ? evidence.map((e) => (e === known ? merged : e)) : [...evidence, merged];
}

function union(known: string[], added: string[]): string[] {
  return [...new Set([...known, ...added])];
}

function classify(
  state: AttemptRecord,
  tx: {
    chainId: number;
    txHash: string;
    outcome: SourceTxOutcome;
    callIds: string[];
    at: number;
    blockNumber?: string;
  },
): AttemptRecord {
  if (state.sourceTxs.some((t) => t.chainId === tx.chainId && t.txHash === tx.txHash)) return state;
  const { chainId, txHash, outcome, callIds, at, blockNumber } = tx;
  const mined = typeof blockNumber === 'string' ? { blockNumber } : {};
  return { ...state, sourceTxs: [...state.sourceTxs, { chainId, txHash, outcome, callIds, at, ...mined }] };
}

function updateSlice(state: AttemptRecord, sliceId: string, changes: Partial<SliceProgress>): AttemptRecord {
  return {
    ...state,
    slices: state.slices.map((s) => (s.sliceId === sliceId ? { ...s, ...changes } : s)),
  };
}
