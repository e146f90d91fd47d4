import { isTerminalAttemptStatus } from '@svc/contract';
import { type AttemptEvent } from './attempt.events';
import { type CheckDeadlines } from './attempt.commands';
import { type AttemptRecord, type SliceProgress } from './attempt-record';
import { executionSeen, openSlices } from './attempt-progress';
import { flattenSlices } from './attempt-slices';
import { quotedRefundTerms } from '../tracking/leg-deadlines';

/**
 * Every non-terminal state ends: a prepared attempt without evidence expires at evidenceDeadlineAt (unless its
 * deposit was found, then it is tracked), and whatever is still open at preparedAt + trackingLimitMs fails, except a
 * leg its provider can still fill or refund (`legDeadlines`, issue 24 item 2): that leg is recorded as owed
 * (`LegOwed`, once per deadline) and followed until its own deadline, and the attempt waits for it.
 */
export function checkDeadlines(state: AttemptRecord, command: CheckDeadlines['data']): AttemptEvent[] {
  const { now: at, trackingLimitMs, depositFound } = command;
  if (isTerminalAttemptStatus(state.status)) return [];
  const { evidenceDeadlineAt, preparedAt } = state.prepared;
  const unreported = state.status === 'prepared' && state.reportIds.length === 0;
  if (unreported && at >= evidenceDeadlineAt && !depositFound && !executionSeen(state)) {
    const ambiguousSources = command.ambiguousSources ?? [];
    return [
      {
        type: 'AttemptExpired',
        data: ambiguousSources.length > 0 ? { at, ambiguousSources: [...ambiguousSources] } : { at },
      },
    ];
  }
  const limitAt = preparedAt + trackingLimitMs;
  if (at < limitAt) return [];
  const open = openSlices(state);
  const until = (s: SliceProgress) => Math.max(limitAt, command.legDeadlines?.[s.sliceId] ?? limitAt);
  const owed = open.filter((s) => at < until(s));
  const timedOut = open.filter((s) => at >= until(s));
  const failures = timedOut.map((s): AttemptEvent => ({
    type: 'LegFailed',
    data: {
      sliceId: s.sliceId,
      errorCode: 'settlement_timeout',
      errorMessage: timeoutMessage(state, s.sliceId),
      refundTxHash: null,
      at,
    },
  }));
  if (owed.length > 0) {
    const news = owed.filter((s) => (s.followedUntil ?? null) !== until(s));
    return [
      ...failures,
      ...news.map((s): AttemptEvent => ({
        type: 'LegOwed',
        data: { sliceId: s.sliceId, until: until(s), at },
      })),
    ];
  }
  const errorMessage =
    open.length > 0
      ? 'not settled within the tracking limit'
      : 'no wallet authorization signature was reported within the tracking limit';
  // Every leg has ended now: the attempt fails with the first leg failure (a refund that came while another leg was
  // owed), else with the timeout.
  const first = state.firstSliceFailure;
  return [
    ...failures,
    {
      type: 'AttemptFailed',
      data: first !== null ? { ...first, at } : { errorCode: 'settlement_timeout', errorMessage, at },
    },
  ];
}

/**
 * A leg's timeout: when its quote said the route has no refund (Across `refundPolicy.supported: false`,
 * `irreversible_rail`: the funds always go through to the destination), the message says no refund will come.
 */
function timeoutMessage(state: AttemptRecord, sliceId: string): string {
  const slice = flattenSlices(state.prepared).find((f) => f.slice.sliceId === sliceId)?.slice;
  const { refundUnsupported } = quotedRefundTerms(slice?.trackingContext ?? null);
  return refundUnsupported === undefined
    ? 'not settled within the tracking limit'
    : `not settled within the tracking limit; no refund will come: the provider's quote said this route has none (${refundUnsupported}), the funds go through to the destination`;
}
