import {
  type AttemptRecord,
  claimAttempt,
  evolveTracking,
  hashGivenUp,
  minedAfterPrepare,
  scheduleHash,
  type TrackingState,
  hashKey,
  mayClaimReported,
} from '@svc/domain';
import { type Address, type Hash } from 'viem';
import { decideAndAppend } from '../attempt-store/attempt-stream';
import { claimTransaction } from '../claims/claim-transaction';
import { claimContender, claimHeld, findRivals } from '../claims/source-rivals';
import {
  observeSourceTransaction,
  type SourceTransactionObservation,
} from '../observe/observe-source-transaction';
import { type TrackerDeps } from './tracker-deps';

/**
 * Reads one reported (or found) source hash and records what it is. A transaction that executed the prepared calls
 * and was mined after the attempt was prepared is claimed for this attempt before it counts; a hash the node does not
 * know is read again with backoff and, after the policy's time, recorded once as unknown. `observed`: the caller
 * already read it (the deposit search), so it is not read twice.
 *
 * Ambiguity (ADR 0009, security review N-M6): a transaction the partner did not report for this attempt (found by
 * the deposit search) that another open attempt of the wallet could own too (its prepared calls equal the executed
 * ones) is neither claimed nor recorded: `ambiguous` lists those attempts. Reported evidence decides it: once a
 * partner reports it for an attempt, that attempt reads and claims it. A reported, confirmed transaction that such
 * rivals could own too is claimed only as mayClaimReported allows (the wallet's signature, then the earliest report);
 * until then it is read again later, unrecorded, and the attempt that may claim it does.
 */
export async function readSourceStep(
  deps: TrackerDeps,
  record: AttemptRecord,
  state: TrackingState,
  {
    chainId,
    txHash,
    now,
    observed,
  }: { chainId: number; txHash: string; now: number; observed?: SourceTransactionObservation },
): Promise<{ record: AttemptRecord; state: TrackingState; ambiguous?: string[] }> {
  const { prepared } = record;
  const action = prepared.chainActions.find((a) => a.chainId === chainId);
  if (!action || !deps.chains.has(chainId)) return { record, state };
  const seen =
    observed ??
    (await observeSourceTransaction(deps.chains.client(chainId), {
      chainId,
      txHash: txHash as Hash,
      wallet: prepared.wallet as Address,
      preparedCalls: action.calls ?? action.transactions ?? [],
    }));
  if (
    seen.outcome === 'pending' ||
    (seen.outcome === 'unknown' && !hashGivenUp(state, chainId, txHash, now, deps.policy))
  ) {
    return { record, state: evolveTracking(state, scheduleHash(state, chainId, txHash, now, deps.policy)) };
  }
  const done = evolveTracking(state, {
    type: 'HashScheduled',
    key: hashKey(chainId, txHash),
    schedule: null,
  });
  const reported = reportedFor(record, chainId, txHash);
  if (
    (seen.outcome === 'confirmed' || seen.outcome === 'reverted') &&
    (!reported || seen.outcome === 'confirmed')
  ) {
    const rivals = await findRivals(deps.store, {
      wallet: prepared.wallet,
      chainId,
      minedAt: seen.minedAt,
      executed: seen.executed,
      selfId: prepared.attemptId,
    });
    const ambiguous = rivals.map((r) => r.prepared.attemptId);
    if (!reported && ambiguous.length > 0) return { record, state: done, ambiguous };
    if (reported && ambiguous.length > 0 && !(await claimHeld(deps.store, chainId, txHash))) {
      const self = await claimContender(deps.store, record, chainId, txHash);
      const others = await Promise.all(rivals.map((r) => claimContender(deps.store, r, chainId, txHash)));
      if (!mayClaimReported(self, others)) {
        const later = evolveTracking(state, scheduleHash(state, chainId, txHash, now, deps.policy));
        return { record, state: later, ambiguous };
      }
    }
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
  return { record: after ?? record, state: done };
}

/** Whether the partner reported `txHash` as this attempt's evidence on `chainId`. */
function reportedFor(record: AttemptRecord, chainId: number, txHash: string): boolean {
  const hash = txHash.toLowerCase();
  return record.evidence.some((e) => e.chainId === chainId && e.txHashes.includes(hash));
}
