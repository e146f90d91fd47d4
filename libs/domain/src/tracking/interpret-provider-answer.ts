import { type LegProgress } from '../attempt/attempt.commands';
import { type AttemptRecord } from '../attempt/attempt-record';
import { sliceSourceTx } from './slice-source-tx';
import { scheduleLeg } from './schedule-after';
import { type TrackingPolicy, type TrackingTraits } from './tracking-traits';
import { type TrackingEvent, type TrackingState } from './tracking.state';

/** A provider's status answer in domain terms (amounts as base-10 strings); `unavailable` when it did not answer. */
export type ProviderAnswer =
  /** retryAfterMs: the provider asked to wait this long (a 429's Retry-After). */
  | { state: 'unavailable'; reason: string; retryAfterMs?: number | null }
  /** fillDeadlineAt: the deposit's own fill deadline (epoch ms), when the answer or the deposit names it. */
  | { state: 'pending'; providerStatus: string; fillDeadlineAt?: number | null }
  | {
      state: 'filled';
      providerStatus: string;
      destinationTxHash: string | null;
      actualOutputRaw: string | null;
      /** The fill's destination action failed: `token` (if known) reached the recipient or refund address. */
      destinationActionFailed: { token: string | null } | null;
      /** The deposit's destination actions have no reported outcome (Across `slowFilled`, N13): see `read_fill`. */
      destinationActionUnreported?: { token: string } | null;
    }
  | {
      state: 'refunded';
      providerStatus: string;
      refundTxHash: string | null;
      refundChainId: number | null;
      reason: string | null;
      /** The token the provider says it refunded in (relay `refundCurrencyData`); null: not said. */
      refundToken?: string | null;
    }
  | { state: 'failed'; providerStatus: string; reason: string | null };

/** What a provider's answer calls for next. */
export type AnswerStep =
  | { kind: 'none' }
  | { kind: 'observe'; progress: LegProgress }
  /** The provider says filled: read the fill from the destination chain before anything is recorded. */
  | {
      kind: 'read_fill';
      fillTxHash: string | null;
      providerAmount: string | null;
      /**
       * The deposit's destination actions have no reported outcome (N13): if the fill gave the recipient none of the
       * target token, read this (bridged) token at the fallback recipient, as for a failed action.
       */
      actionFallbackToken?: string;
    }
  /** The fill's destination action failed: read what `token` reached the recipient or refund address. */
  | { kind: 'read_other_delivery'; fillTxHash: string | null; token: string | null }
  /**
   * Refunded: read where the refund went (chain, token, amount) before recording it. refundToken: the token the
   * provider named, null when it named none (the edge then reads the deposit's own input token, else the source's).
   */
  | {
      kind: 'read_refund';
      refundTxHash: string | null;
      refundChainId: number | null;
      reason: string;
      refundToken: string | null;
    };

/**
 * What one poll of a leg's provider means. A failure is final only once it stood for the provider's grace period
 * (a refund can follow); until then it is recorded as pending with the provider's word. A `waiting` answer before
 * any source transaction is seen is not worth an event.
 */
export function interpretProviderAnswer(
  record: AttemptRecord,
  state: TrackingState,
  sliceId: string,
  answer: ProviderAnswer,
  { now, traits, policy }: { now: number; traits: TrackingTraits; policy: TrackingPolicy },
): { step: AnswerStep; schedule: TrackingEvent } {
  const previous = record.slices.find((s) => s.sliceId === sliceId);
  const failed = answer.state === 'failed';
  const step = stepFor(record, state, sliceId, answer, now, traits);
  // A poll the chain hinted at that found nothing new yet (the provider lags the chain) is tried again soon.
  const hinted = state.legs[sliceId]?.hinted === true;
  const changed =
    hinted ||
    (step.kind !== 'none' &&
      !(
        step.kind === 'observe' &&
        step.progress.state === 'pending' &&
        previous?.providerStatus === step.progress.providerStatus
      ));
  return {
    step,
    schedule: scheduleLeg(
      state,
      sliceId,
      {
        now,
        changed,
        failed,
        minIntervalMs: traits.minPollIntervalMs,
        waitAtLeastMs: answer.state === 'unavailable' ? (answer.retryAfterMs ?? 0) : 0,
      },
      policy,
    ),
  };
}

function stepFor(
  record: AttemptRecord,
  state: TrackingState,
  sliceId: string,
  answer: ProviderAnswer,
  now: number,
  traits: TrackingTraits,
): AnswerStep {
  switch (answer.state) {
    case 'unavailable':
      return { kind: 'none' };
    case 'pending':
      if (answer.providerStatus === 'waiting' && sliceSourceTx(record, sliceId) === null)
        return { kind: 'none' };
      return {
        kind: 'observe',
        progress: {
          state: 'pending',
          providerStatus: answer.providerStatus,
          ...(answer.fillDeadlineAt != null ? { fillDeadlineAt: answer.fillDeadlineAt } : {}),
        },
      };
    case 'filled':
      if (answer.destinationActionFailed)
        return {
          kind: 'read_other_delivery',
          fillTxHash: answer.destinationTxHash,
          token: answer.destinationActionFailed.token,
        };
      return {
        kind: 'read_fill',
        fillTxHash: answer.destinationTxHash,
        providerAmount: answer.actualOutputRaw,
        ...(answer.destinationActionUnreported
          ? { actionFallbackToken: answer.destinationActionUnreported.token }
          : {}),
      };
    case 'refunded':
      return {
        kind: 'read_refund',
        refundTxHash: answer.refundTxHash,
        refundChainId: answer.refundChainId,
        reason: answer.reason ?? 'refunded by the provider',
        refundToken: answer.refundToken ?? null,
      };
    case 'failed': {
      const since = state.legs[sliceId]?.failureSince ?? now;
      if (now - since < traits.failureGraceMs) {
        return { kind: 'observe', progress: { state: 'pending', providerStatus: answer.providerStatus } };
      }
      return {
        kind: 'observe',
        progress: { state: 'failed', reason: answer.reason ?? 'the provider reported a failure' },
      };
    }
  }
}
