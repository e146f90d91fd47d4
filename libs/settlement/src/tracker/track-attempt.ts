import { type ChainRegistry } from '@svc/chains';
import { type AttemptRecord, decideAttempt, flattenSlices, type LegProgress, slicePlan } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { type ProviderAdapter, type RoutableProvider, type TrackingContext } from '@svc/providers';
import { type Address, type Hash, zeroAddress } from 'viem';
import { decideAndAppend } from '../attempt-store/attempt-stream';
import { observeSourceTransaction } from '../observe/observe-source-transaction';
import { readSettledAmount } from '../observe/read-settled-amount';

export interface TrackerDeps {
  store: EventStore;
  chains: ChainRegistry;
  adapters: Record<RoutableProvider, ProviderAdapter>;
  trackingLimitMs: number;
  /** Whether a provider slice may be polled now (backoff is the caller's). */
  mayPoll(sliceId: string, now: number): boolean;
  polled(sliceId: string, changed: boolean, now: number): void;
}

/**
 * One pass over one non-terminal attempt: classify reported source transactions, follow each slice through its
 * provider to the destination chain, and enforce the deadlines. Every observation goes through the attempt decider,
 * with step ids that make a repeated observation a no-op, so a restarted tracker simply does the pass again.
 */
export async function trackAttempt(
  deps: TrackerDeps,
  attemptId: string,
  record: AttemptRecord,
  now: number,
): Promise<AttemptRecord> {
  let current = record;
  current = await checkSourceTransactions(deps, attemptId, current, now);
  current = await followSlices(deps, attemptId, current, now);
  const depositFound =
    current.status === 'prepared' && now >= current.prepared.evidenceDeadlineAt
      ? await relayDepositSeen(deps, current)
      : false;
  const after = await decideAndAppend(
    deps.store,
    attemptId,
    `deadlines:${current.status}:${now >= current.prepared.evidenceDeadlineAt}:${now >= current.prepared.preparedAt + deps.trackingLimitMs}:${depositFound}`,
    (r) =>
      decideAttempt(
        { type: 'CheckDeadlines', data: { now, trackingLimitMs: deps.trackingLimitMs, depositFound } },
        r,
      ),
  );
  return after ?? current;
}

async function checkSourceTransactions(
  deps: TrackerDeps,
  attemptId: string,
  record: AttemptRecord,
  now: number,
): Promise<AttemptRecord> {
  let current = record;
  for (const chain of record.evidence) {
    const action = record.prepared.chainActions.find((a) => a.chainId === chain.chainId);
    if (!action || !deps.chains.has(chain.chainId)) continue;
    for (const txHash of chain.txHashes) {
      if (current.sourceTxs.some((t) => t.chainId === chain.chainId && t.txHash === txHash)) continue;
      const seen = await observeSourceTransaction(deps.chains.client(chain.chainId), {
        chainId: chain.chainId,
        txHash: txHash as Hash,
        wallet: record.prepared.wallet as Address,
        preparedCalls: action.calls ?? action.transactions ?? [],
      });
      if (seen.outcome === 'unknown' || seen.outcome === 'pending') continue;
      const data =
        seen.outcome === 'confirmed'
          ? { outcome: 'confirmed' as const, callIds: seen.callIds, blockNumber: seen.blockNumber.toString() }
          : seen.outcome === 'reverted'
            ? { outcome: 'reverted' as const }
            : { outcome: 'mismatched' as const, reason: seen.reason };
      current =
        (await decideAndAppend(deps.store, attemptId, `source:${chain.chainId}:${txHash}`, (r) =>
          decideAttempt(
            { type: 'ObserveSourceTransaction', data: { chainId: chain.chainId, txHash, now, ...data } },
            r,
          ),
        )) ?? current;
    }
  }
  return current;
}

async function followSlices(
  deps: TrackerDeps,
  attemptId: string,
  record: AttemptRecord,
  now: number,
): Promise<AttemptRecord> {
  let current = record;
  for (const { slice, leg } of flattenSlices(record.prepared)) {
    const progress = current.slices.find((s) => s.sliceId === slice.sliceId);
    if (!progress || progress.status === 'settled' || progress.status === 'failed') continue;
    const primary = slicePlan(current.prepared, slice.sliceId)?.callIds[0] ?? null;
    const sourceTx = primary
      ? current.sourceTxs.find((t) => t.outcome === 'confirmed' && t.callIds.includes(primary))
      : undefined;
    const recipient = current.prepared.recipient as Address;
    const token = leg.target.address as Address;
    let observed: LegProgress | null = null;
    if (slice.noop) {
      if (current.prepared.recipient.toLowerCase() === current.prepared.wallet.toLowerCase()) {
        // Already the target token in the recipient's wallet: delivered once the attempt is under way.
        if (current.status !== 'prepared')
          observed = {
            state: 'filled',
            destinationTxHash: null,
            settledAmount: slice.expectedOutputRaw,
            amountBasis: 'exact',
          };
      } else if (sourceTx) {
        observed = await filled(
          deps,
          leg.target.chainId,
          sourceTx.txHash,
          recipient,
          token,
          slice.expectedOutputRaw,
          null,
        );
      }
    } else if (slice.trackingContext && slice.provider && deps.mayPoll(slice.sliceId, now)) {
      const needsSourceTx = slice.provider !== 'relay';
      if (!needsSourceTx || sourceTx) {
        const result = await deps.adapters[slice.provider as RoutableProvider].status(
          slice.trackingContext as unknown as TrackingContext,
          {
            signal: AbortSignal.timeout(10_000),
            sourceTxHash: (sourceTx?.txHash as Hash | undefined) ?? null,
          },
        );
        if (result.ok) {
          const p = result.progress;
          observed =
            p.state === 'filled'
              ? await filled(
                  deps,
                  leg.target.chainId,
                  p.destinationTxHash,
                  recipient,
                  token,
                  slice.expectedOutputRaw,
                  p.actualOutputRaw,
                )
              : p.state === 'pending'
                ? // relay reports `waiting` until it sees a deposit: not a step worth recording before one exists
                  sourceTx || p.providerStatus !== 'waiting'
                  ? { state: 'pending', providerStatus: p.providerStatus }
                  : null
                : p.state === 'refunded'
                  ? {
                      state: 'refunded',
                      refundTxHash: p.refundTxHash,
                      reason: p.reason ?? 'refunded by the provider',
                    }
                  : { state: 'failed', reason: p.reason ?? 'the provider reported a failure' };
        }
        deps.polled(slice.sliceId, observed !== null && observed.state !== 'pending', now);
      }
    }
    if (!observed) continue;
    const step =
      observed.state === 'pending'
        ? `leg:${slice.sliceId}:pending:${observed.providerStatus}`
        : `leg:${slice.sliceId}:${observed.state}`;
    const change = observed;
    current =
      (await decideAndAppend(deps.store, attemptId, step, (r) =>
        decideAttempt({ type: 'ObserveLeg', data: { sliceId: slice.sliceId, progress: change, now } }, r),
      )) ?? current;
  }
  return current;
}

/** The amount the recipient received in the fill transaction (exact), else the provider's figure (estimated). */
async function filled(
  deps: TrackerDeps,
  chainId: number,
  fillTxHash: string | null,
  recipient: Address,
  token: Address,
  expectedRaw: string,
  providerAmount: bigint | null,
): Promise<LegProgress | null> {
  if (fillTxHash && deps.chains.has(chainId)) {
    const read = await readSettledAmount(deps.chains.client(chainId), {
      fillTxHash: fillTxHash as Hash,
      recipient,
      token: token === zeroAddress ? zeroAddress : token,
    });
    if (read.basis === 'exact')
      return {
        state: 'filled',
        destinationTxHash: fillTxHash,
        settledAmount: read.amount.toString(),
        amountBasis: 'exact',
      };
    if (read.reason === 'not_found' || read.reason === 'not_mined') return null; // the node may lag: look again next pass
  }
  return {
    state: 'filled',
    destinationTxHash: fillTxHash,
    settledAmount: (providerAmount ?? BigInt(expectedRaw)).toString(),
    amountBasis: 'estimated',
  };
}

/** Before expiring an attempt with no evidence: did a provider see a deposit anyway (relay can tell by request id)? */
async function relayDepositSeen(deps: TrackerDeps, record: AttemptRecord): Promise<boolean> {
  for (const { slice } of flattenSlices(record.prepared)) {
    if (slice.provider !== 'relay' || !slice.trackingContext) continue;
    const result = await deps.adapters.relay.status(slice.trackingContext as unknown as TrackingContext, {
      signal: AbortSignal.timeout(5000),
      sourceTxHash: null,
    });
    if (result.ok && !(result.progress.state === 'pending' && result.progress.providerStatus === 'waiting'))
      return true;
  }
  return false;
}
