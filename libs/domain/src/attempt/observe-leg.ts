import { isTerminalLegStatus } from '@svc/contract';
import { type AttemptEvent } from './attempt.events';
import { type ObserveLeg } from './attempt.commands';
import { AttemptInputError } from './attempt-input.error';
import { type AttemptRecord, type SliceProgress } from './attempt-record';
import { flattenSlices } from './attempt-slices';
import { withLifecycle } from './advance-lifecycle';
import { filledLegEvents } from './confirm-leg';

/**
 * Records a slice's progress; a settled or failed slice never changes, an unchanged pending status is no news.
 * `settled` means the target reached the recipient: a fill of nothing is rejected (the leg stays open), a fill below
 * the slice's minimum output ends the leg `below_minimum`, never settled.
 */
export function observeLeg(state: AttemptRecord, command: ObserveLeg['data']): AttemptEvent[] {
  const { sliceId, now: at } = command;
  const slice = state.slices.find((s) => s.sliceId === sliceId);
  const planned = flattenSlices(state.prepared).find((s) => s.slice.sliceId === sliceId)?.slice;
  if (slice === undefined || planned === undefined) throw new AttemptInputError(`no slice ${sliceId}`);
  if (isTerminalLegStatus(slice.status)) return [];
  const event = legEvent(slice, BigInt(planned.minimumOutputRaw), command);
  if (event === null) return [];
  // A delivering fill settles only once final under the chains' confirmation policies (issue 24 item 3).
  const events =
    event.type === 'LegSettled' && event.data.destinationTxHash !== null
      ? filledLegEvents(
          state,
          slice,
          { ...event.data, destinationTxHash: event.data.destinationTxHash },
          command.finality,
        )
      : [event];
  return events.length === 0 ? [] : withLifecycle(state, events, at);
}

function legEvent(
  slice: SliceProgress,
  minimum: bigint,
  { sliceId, progress, now: at }: ObserveLeg['data'],
): AttemptEvent | null {
  switch (progress.state) {
    case 'pending': {
      // The deposit's own fill deadline is news once (issue 24 item 2): it sets how long the leg is followed.
      const deadline = progress.fillDeadlineAt ?? null;
      const newDeadline = deadline !== null && deadline !== (slice.fillDeadlineAt ?? null);
      if (slice.status === 'pending' && slice.providerStatus === progress.providerStatus && !newDeadline)
        return null;
      const { providerStatus } = progress;
      return {
        type: 'LegPending',
        data: { sliceId, providerStatus, at, ...(newDeadline ? { fillDeadlineAt: deadline } : {}) },
      };
    }
    case 'filled': {
      const { destinationTxHash, settledAmount, amountBasis, deliveredToken, depositKey } = progress;
      if (!/^\d+$/.test(settledAmount)) {
        throw new AttemptInputError(`settledAmount ${settledAmount} of ${sliceId} is not base-10 digits`);
      }
      const amount = BigInt(settledAmount);
      if (amount === 0n) {
        return rejected(slice, { sliceId, destinationTxHash, reason: 'the fill delivered nothing', at });
      }
      if (amount < minimum) {
        return {
          type: 'LegFailed',
          data: {
            sliceId,
            errorCode: 'below_minimum',
            errorMessage: `the fill delivered ${amount} base units, below the minimum output ${minimum}`,
            refundTxHash: null,
            destinationTxHash,
            settledAmount: amount.toString(),
            amountBasis,
            at,
          },
        };
      }
      return {
        type: 'LegSettled',
        data: {
          sliceId,
          destinationTxHash,
          settledAmount: amount.toString(),
          amountBasis,
          at,
          ...(deliveredToken !== undefined ? { deliveredToken } : {}),
          ...(depositKey !== undefined ? { depositKey } : {}),
        },
      };
    }
    case 'fill_rejected':
      return rejected(slice, {
        sliceId,
        destinationTxHash: progress.destinationTxHash,
        reason: progress.reason,
        at,
      });
    case 'refunded':
      return {
        type: 'LegFailed',
        data: {
          sliceId,
          errorCode: 'refunded',
          errorMessage: progress.reason,
          refundTxHash: progress.refundTxHash,
          ...(progress.refund ? { refund: progress.refund } : {}),
          at,
        },
      };
    case 'destination_action_failed':
      return {
        type: 'LegFailed',
        data: {
          sliceId,
          errorCode: 'destination_action_failed',
          errorMessage: progress.reason,
          refundTxHash: progress.refund.txHash,
          destinationTxHash: progress.destinationTxHash,
          refund: progress.refund,
          at,
        },
      };
    case 'failed':
      return {
        type: 'LegFailed',
        data: {
          sliceId,
          errorCode: 'provider_failed',
          errorMessage: progress.reason,
          refundTxHash: null,
          at,
        },
      };
  }
}

/** A rejected fill is a fact worth one event: the same fill again is no news. */
function rejected(
  slice: SliceProgress,
  data: { sliceId: string; destinationTxHash: string | null; reason: string; at: number },
): AttemptEvent | null {
  if (slice.rejectedFills.includes(data.destinationTxHash ?? '')) return null;
  return { type: 'LegFillRejected', data };
}
