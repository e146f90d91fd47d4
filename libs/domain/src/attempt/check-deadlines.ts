import { isTerminalAttemptStatus } from '@svc/contract';
import { type AttemptEvent } from './attempt.events';
import { type CheckDeadlines } from './attempt.commands';
import { type AttemptRecord } from './attempt-record';
import { executionSeen, openSlices } from './attempt-progress';

/**
 * Every non-terminal state ends: a prepared attempt without evidence expires at evidenceDeadlineAt (unless its
 * deposit was found, then it is tracked), and whatever is still open at preparedAt + trackingLimitMs fails.
 */
export function checkDeadlines(state: AttemptRecord, command: CheckDeadlines['data']): AttemptEvent[] {
  const { now: at, trackingLimitMs, depositFound } = command;
  if (isTerminalAttemptStatus(state.status)) return [];
  const { evidenceDeadlineAt, preparedAt } = state.prepared;
  const unreported = state.status === 'prepared' && state.reportIds.length === 0;
  if (unreported && at >= evidenceDeadlineAt && !depositFound && !executionSeen(state)) {
    return [{ type: 'AttemptExpired', data: { at } }];
  }
  if (at < preparedAt + trackingLimitMs) return [];
  const open = openSlices(state);
  const errorMessage =
    open.length > 0
      ? 'not settled within the tracking limit'
      : 'no wallet authorization signature was reported within the tracking limit';
  return [
    ...open.map((s): AttemptEvent => ({
      type: 'LegFailed',
      data: {
        sliceId: s.sliceId,
        errorCode: 'settlement_timeout',
        errorMessage: 'not settled within the tracking limit',
        refundTxHash: null,
        at,
      },
    })),
    { type: 'AttemptFailed', data: { errorCode: 'settlement_timeout', errorMessage, at } },
  ];
}
