import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import { type AttemptRecord } from '../attempt/attempt-record';
import { type FlatSlice, flattenSlices, slicePlan } from '../attempt/attempt-slices';
import { executionSeen } from '../attempt/attempt-progress';
import { type TrackingTraits } from './tracking-traits';
import { legDelayTimes } from './delayed-legs';
import { legDeadlines } from './leg-deadlines';
import { sliceSourceTx } from './slice-source-tx';
import { hashKey, type LegSchedule, type TrackingState } from './tracking.state';

/** What the tracker should do for one attempt now; the edge performs it and feeds the results back. */
export type TrackingWork =
  /** Read a reported source hash: sender, calls, success, block time. */
  | { kind: 'read_source'; chainId: number; txHash: string }
  /**
   * Ask the slice's provider. depositIndex: which of this provider's deposits in the source transaction is the
   * slice's (a batch can hold several), null when no source transaction is known.
   */
  | { kind: 'poll_provider'; sliceId: string; sourceTxHash: string | null; depositIndex: number | null }
  /** A no-op slice delivered by its own transfer in the source transaction: read that transfer. */
  | { kind: 'verify_noop_transfer'; sliceId: string; chainId: number; txHash: string }
  /** A no-op slice whose tokens are already the recipient's (recipient = wallet): read the balance. */
  | { kind: 'verify_noop_balance'; sliceId: string; chainId: number }
  /** Before expiring an attempt without evidence, look for the wallet's deposit on chain and at the providers. */
  | { kind: 'search_deposits' };

export interface PlanInput {
  now: number;
  /** The provider's declared traits; null for one the tracker cannot poll. */
  traitsOf: (provider: string) => TrackingTraits | null;
  /** Whether the service can read this chain (it is configured). */
  readable: (chainId: number) => boolean;
}

/**
 * The tracking workflow's decision for one attempt at `now`: every read and poll that is due. Pacing is per attempt
 * and per leg, so no attempt's schedule touches another's; a terminal attempt needs nothing.
 */
export function planTracking(record: AttemptRecord, state: TrackingState, input: PlanInput): TrackingWork[] {
  if (isTerminalAttemptStatus(record.status)) return [];
  const work: TrackingWork[] = [...sourceReads(record, state, input)];
  for (const flat of flattenSlices(record.prepared)) {
    const step = sliceWork(record, state, flat, input);
    if (step !== null) work.push(step);
  }
  if (searchDue(record, state, input.now)) work.push({ kind: 'search_deposits' });
  return work;
}

/**
 * The earliest time from `now` on at which this attempt has work, or a deadline to enforce (the evidence deadline
 * while nothing was reported, the tracking limit, each owed leg's own deadline); Infinity for a terminal attempt.
 */
export function nextWakeAt(
  record: AttemptRecord,
  state: TrackingState,
  input: PlanInput & { trackingLimitMs: number; delayMarginMs: number },
): number {
  if (isTerminalAttemptStatus(record.status)) return Infinity;
  const { now } = input;
  const { evidenceDeadlineAt, preparedAt } = record.prepared;
  const deadlines = [
    preparedAt + input.trackingLimitMs,
    ...Object.values(legDeadlines(record, input)),
    ...legDelayTimes(record, input),
  ];
  if (record.status === 'prepared' && record.reportIds.length === 0) deadlines.push(evidenceDeadlineAt);
  const candidates = [
    now,
    ...(state.depositSearchRetry ? [state.depositSearchRetry.nextAt] : []),
    ...Object.values(state.hashes).map((h) => h.nextReadAt),
    ...Object.values(state.legs).flatMap((l) => [
      l.nextPollAt,
      ...(l.lastPollAt === null ? [] : [l.lastPollAt]),
    ]),
  ];
  const intervals = flattenSlices(record.prepared).map((f) =>
    f.slice.provider === null ? 0 : (input.traitsOf(f.slice.provider)?.minPollIntervalMs ?? 0),
  );
  const times = [...new Set([...candidates, ...candidates.flatMap((t) => intervals.map((i) => t + i))])]
    .filter((t) => t >= now)
    .sort((a, b) => a - b);
  const firstWork =
    times.find((t) => planTracking(record, state, { ...input, now: t }).length > 0) ?? Infinity;
  return Math.min(firstWork, ...deadlines.filter((d) => d >= now));
}

function sourceReads(
  record: AttemptRecord,
  state: TrackingState,
  { now, readable }: PlanInput,
): TrackingWork[] {
  const reads: TrackingWork[] = [];
  for (const chain of record.evidence) {
    if (!readable(chain.chainId)) continue;
    if (!record.prepared.chainActions.some((a) => a.chainId === chain.chainId)) continue;
    for (const txHash of chain.txHashes) {
      if (record.sourceTxs.some((t) => t.chainId === chain.chainId && t.txHash === txHash)) continue;
      const schedule = state.hashes[hashKey(chain.chainId, txHash)];
      if (schedule !== undefined && schedule.nextReadAt > now) continue;
      reads.push({ kind: 'read_source', chainId: chain.chainId, txHash });
    }
  }
  return reads;
}

function sliceWork(
  record: AttemptRecord,
  state: TrackingState,
  { slice, leg }: FlatSlice,
  { now, traitsOf, readable }: PlanInput,
): TrackingWork | null {
  const progress = record.slices.find((s) => s.sliceId === slice.sliceId);
  if (progress === undefined || isTerminalLegStatus(progress.status)) return null;
  const schedule = state.legs[slice.sliceId];
  const sourceTx = sliceSourceTx(record, slice.sliceId);
  if (slice.noop) {
    if (!due(schedule, now, 0)) return null;
    const { wallet, recipient } = record.prepared;
    if (recipient.toLowerCase() === wallet.toLowerCase()) {
      // The tokens are already the recipient's: verified by a balance read once evidence arrived.
      if (record.reportIds.length === 0 || !readable(leg.target.chainId)) return null;
      return { kind: 'verify_noop_balance', sliceId: slice.sliceId, chainId: leg.target.chainId };
    }
    if (sourceTx === null) return null;
    return {
      kind: 'verify_noop_transfer',
      sliceId: slice.sliceId,
      chainId: slice.sourceChainId,
      txHash: sourceTx.txHash,
    };
  }
  const provider = slice.provider;
  const traits = provider === null ? null : traitsOf(provider);
  if (provider === null || traits === null || slice.trackingContext === null) return null;
  if (sourceTx === null && !traits.pollsBeforeSourceTx) return null;
  if (!due(schedule, now, traits.minPollIntervalMs)) return null;
  return { kind: 'poll_provider', sliceId: slice.sliceId, ...sliceDeposit(record, slice.sliceId) };
}

/**
 * The slice's deposit as the tracker asks its provider about it: the confirmed source transaction that executed it
 * and its position among that provider's deposits there (both null while no source transaction is known). The audit
 * asks the same to read a settled leg's fill again.
 */
export function sliceDeposit(
  record: AttemptRecord,
  sliceId: string,
): { sourceTxHash: string | null; depositIndex: number | null } {
  const sourceTx = sliceSourceTx(record, sliceId);
  const provider = flattenSlices(record.prepared).find((f) => f.slice.sliceId === sliceId)?.slice.provider;
  if (sourceTx === null || provider == null) return { sourceTxHash: null, depositIndex: null };
  return {
    sourceTxHash: sourceTx.txHash,
    depositIndex: depositIndex(record, sliceId, provider, sourceTx.callIds),
  };
}

function due(schedule: LegSchedule | undefined, now: number, minIntervalMs: number): boolean {
  if (schedule === undefined || schedule.hinted === true) return true;
  if (schedule.lastPollAt !== null && now < schedule.lastPollAt + minIntervalMs) return false;
  return now >= schedule.nextPollAt;
}

/**
 * The slice's position among the same provider's deposits executed by one transaction, in call order: what tells
 * two deposits of one batch apart (the n-th deposit call emits the n-th deposit event).
 */
function depositIndex(record: AttemptRecord, sliceId: string, provider: string, txCallIds: string[]): number {
  const deposits = flattenSlices(record.prepared)
    .filter((f) => f.slice.provider === provider && !f.slice.noop)
    .map((f) => ({ sliceId: f.slice.sliceId, call: slicePlan(record.prepared, f.slice.sliceId)?.callIds[0] }))
    .filter((d) => d.call !== undefined && txCallIds.includes(d.call))
    .sort((a, b) => txCallIds.indexOf(a.call!) - txCallIds.indexOf(b.call!));
  return Math.max(
    0,
    deposits.findIndex((d) => d.sliceId === sliceId),
  );
}

function searchDue(record: AttemptRecord, state: TrackingState, now: number): boolean {
  return (
    record.status === 'prepared' &&
    record.reportIds.length === 0 &&
    now >= record.prepared.evidenceDeadlineAt &&
    !state.depositSearched &&
    now >= (state.depositSearchRetry?.nextAt ?? 0) &&
    !executionSeen(record)
  );
}
