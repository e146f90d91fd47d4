import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import { type AttemptEvent } from './attempt.events';
import { type MarkLegDelayed } from './attempt.commands';
import { AttemptInputError } from './attempt-input.error';
import { type AttemptRecord } from './attempt-record';

/** Marks an open leg delayed, once; an ended leg or attempt, or one not yet past its expected time, is no news. */
export function markLegDelayed(state: AttemptRecord, command: MarkLegDelayed['data']): AttemptEvent[] {
  const { sliceId, since, expectedBy, explorerUrl, now: at } = command;
  const slice = state.slices.find((s) => s.sliceId === sliceId);
  if (slice === undefined) throw new AttemptInputError(`no slice ${sliceId}`);
  if (isTerminalAttemptStatus(state.status) || isTerminalLegStatus(slice.status)) return [];
  if (slice.delayed !== null || at < expectedBy) return [];
  return [{ type: 'LegDelayed', data: { sliceId, since, expectedBy, explorerUrl, at } }];
}
