import {
  type AttemptRecord,
  claimAttempt,
  evolveTracking,
  hashGivenUp,
  minedAfterPrepare,
  scheduleHash,
  type TrackingState,
  hashKey,
} from '@svc/domain';
import { type Address, type Hash } from 'viem';
import { decideAndAppend } from '../attempt-store/attempt-stream';
import { claimTransaction } from '../claims/claim-transaction';
import { observeSourceTransaction } from '../observe/observe-source-transaction';
import { type TrackerDeps } from './tracker-deps';

/**
 * Reads one reported (or found) source hash and records what it is. A transaction that executed the prepared calls
 * and was mined after the attempt was prepared is claimed for this attempt before it counts; a hash the node does not
 * know is read again with backoff and, after the policy's time, recorded once as unknown.
 */
export async function readSourceStep(
  deps: TrackerDeps,
  record: AttemptRecord,
  state: TrackingState,
  { chainId, txHash, now }: { chainId: number; txHash: string; now: number },
): Promise<{ record: AttemptRecord; state: TrackingState }> {
  const { prepared } = record;
  const action = prepared.chainActions.find((a) => a.chainId === chainId);
  if (!action || !deps.chains.has(chainId)) return { record, state };
  const seen = await observeSourceTransaction(deps.chains.client(chainId), {
    chainId,
    txHash: txHash as Hash,
    wallet: prepared.wallet as Address,
    preparedCalls: action.calls ?? action.transactions ?? [],
  });
  if (
    seen.outcome === 'pending' ||
    (seen.outcome === 'unknown' && !hashGivenUp(state, chainId, txHash, now, deps.policy))
  ) {
    return { record, state: evolveTracking(state, scheduleHash(state, chainId, txHash, now, deps.policy)) };
  }
  let claimedBy: string | null = null;
  if (seen.outcome === 'confirmed') {
    deps.receiptLogs.set(hashKey(chainId, txHash), seen.logs);
    if (minedAfterPrepare(prepared, seen.minedAt)) {
      const claim = { role: 'source' as const, attemptId: prepared.attemptId };
      claimedBy = claimAttempt(await claimTransaction(deps.store, { chainId, txHash, claim, at: now }));
    }
  }
  const data =
    seen.outcome === 'confirmed'
      ? {
          outcome: 'confirmed' as const,
          callIds: seen.callIds,
          blockNumber: seen.blockNumber.toString(),
          minedAt: seen.minedAt,
          claimedBy,
        }
      : seen.outcome === 'reverted'
        ? { outcome: 'reverted' as const, minedAt: seen.minedAt }
        : seen.outcome === 'mismatched'
          ? { outcome: 'mismatched' as const, reason: seen.reason }
          : { outcome: 'unknown' as const, reason: 'the node never knew this transaction' };
  const after = await decideAndAppend(deps.store, prepared.attemptId, `source:${chainId}:${txHash}`, {
    type: 'ObserveSourceTransaction',
    data: { chainId, txHash, now, ...data },
  });
  const settled = evolveTracking(state, {
    type: 'HashScheduled',
    key: hashKey(chainId, txHash),
    schedule: null,
  });
  return { record: after ?? record, state: settled };
}
