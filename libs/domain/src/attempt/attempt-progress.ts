import { isTerminalLegStatus } from '@svc/contract';
import { type AttemptRecord, type SliceProgress } from './attempt-record';

/** The wallet's execution was seen on chain: a prepared call confirmed, or a provider acted on a deposit. */
export function executionSeen(state: AttemptRecord): boolean {
  return (
    state.sourceTxs.some((tx) => tx.outcome === 'confirmed') ||
    state.slices.some((s) => s.status !== 'awaiting_source' && s.errorCode !== 'settlement_timeout')
  );
}

/** What moves wallet_submitted to provider_pending: a source tx confirmed, or a provider saw a deposit. */
export function providerSawDeposit(state: AttemptRecord): boolean {
  return (
    state.sourceTxs.some((tx) => tx.outcome === 'confirmed') ||
    state.slices.some(
      (s) =>
        s.status === 'pending' ||
        s.status === 'settled' ||
        s.errorCode === 'refunded' ||
        s.errorCode === 'provider_failed' ||
        s.errorCode === 'below_minimum' ||
        s.errorCode === 'destination_action_failed',
    )
  );
}

export function openSlices(state: AttemptRecord): SliceProgress[] {
  return state.slices.filter((s) => !isTerminalLegStatus(s.status));
}
