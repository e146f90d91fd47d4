import { type AttemptEvent } from './attempt.events';
import { type AttemptRecord } from './attempt-record';
import { evolveAttemptRecord } from './attempt.state';
import { openSlices, providerSawDeposit } from './attempt-progress';

/**
 * The lifecycle events the attempt's facts now call for, in order: prepared → wallet_submitted →
 * provider_pending → settled, never skipping a step, so the webhooks they become are ordered and complete.
 * Failure may end wallet_submitted (every source tx reverted) or provider_pending.
 */
export function advanceLifecycle(state: AttemptRecord, at: number): AttemptEvent[] {
  const next = nextLifecycleEvent(state, at);
  return next === null ? [] : [next, ...advanceLifecycle(evolveAttemptRecord(state, next), at)];
}

/** The events decided, then the lifecycle events they lead to. */
export function withLifecycle(state: AttemptRecord, events: AttemptEvent[], at: number): AttemptEvent[] {
  return [...events, ...advanceLifecycle(events.reduce(evolveAttemptRecord, state), at)];
}

function nextLifecycleEvent(state: AttemptRecord, at: number): AttemptEvent | null {
  const ended = openSlices(state).length === 0;
  const failed = state.firstSliceFailure;
  switch (state.status) {
    case 'prepared':
      // Only reported evidence submits: a deposit the tracker found alone waits for it (or for the deadline).
      return state.reportIds.length > 0 ? { type: 'AttemptWalletSubmitted', data: { at } } : null;
    case 'wallet_submitted':
      if (providerSawDeposit(state)) return { type: 'AttemptProviderPending', data: { at } };
      return ended && failed !== null ? { type: 'AttemptFailed', data: { ...failed, at } } : null;
    case 'provider_pending':
      if (!ended) return null;
      if (failed !== null) return { type: 'AttemptFailed', data: { ...failed, at } };
      // Every leg delivered, but settled also needs the wallet's signature: a later report may bring it.
      return state.signature !== null ? { type: 'AttemptSettled', data: { at } } : null;
    case 'settled':
    case 'failed':
    case 'expired':
      return null;
  }
}
