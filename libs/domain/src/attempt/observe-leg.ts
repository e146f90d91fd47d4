import { isTerminalLegStatus } from '@svc/contract';
import { type AttemptEvent } from './attempt.events';
import { type ObserveLeg } from './attempt.commands';
import { AttemptInputError } from './attempt-input.error';
import { type AttemptRecord } from './attempt-record';
import { withLifecycle } from './advance-lifecycle';

/** Records a slice's progress; a settled or failed slice never changes, an unchanged pending status is no news. */
export function observeLeg(state: AttemptRecord, command: ObserveLeg['data']): AttemptEvent[] {
  const { sliceId, now: at } = command;
  const slice = state.slices.find((s) => s.sliceId === sliceId);
  if (slice === undefined) throw new AttemptInputError(`no slice ${sliceId}`);
  if (isTerminalLegStatus(slice.status)) return [];
  const event = legEvent(slice.providerStatus, slice.status === 'pending', command);
  return event === null ? [] : withLifecycle(state, [event], at);
}

function legEvent(
  providerStatus: string | null,
  pending: boolean,
  { sliceId, progress, now: at }: ObserveLeg['data'],
): AttemptEvent | null {
  switch (progress.state) {
    case 'pending':
      if (pending && providerStatus === progress.providerStatus) return null;
      return { type: 'LegPending', data: { sliceId, providerStatus: progress.providerStatus, at } };
    case 'filled': {
      const { destinationTxHash, settledAmount, amountBasis } = progress;
      if (!/^\d+$/.test(settledAmount)) {
        throw new AttemptInputError(`settledAmount ${settledAmount} of ${sliceId} is not base-10 digits`);
      }
      return {
        type: 'LegSettled',
        data: {
          sliceId,
          destinationTxHash,
          settledAmount: BigInt(settledAmount).toString(),
          amountBasis,
          at,
        },
      };
    }
    case 'refunded':
      return {
        type: 'LegFailed',
        data: {
          sliceId,
          errorCode: 'refunded',
          errorMessage: progress.reason,
          refundTxHash: progress.refundTxHash,
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
