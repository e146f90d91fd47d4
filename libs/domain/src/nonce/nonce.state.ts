import { type NonceEvent } from './nonce.events';

export type NonceState = { status: 'unused' } | { status: 'used'; tupleHash: string };

export const initialNonceState: NonceState = { status: 'unused' };

/** The first binding holds: a nonce is never rebound. */
export function evolveNonce(state: NonceState, event: NonceEvent): NonceState {
  // A type this build does not know (a newer build's) binds nothing.
  if (event.type !== 'NonceUsed') return state;
  return state.status === 'unused' ? { status: 'used', tupleHash: event.data.tupleHash } : state;
}

/** Whether a request with this tuple may use the nonce: unused, or bound to this very tuple (a retried delivery). */
export function nonceAvailable(state: NonceState, tupleHash: string): boolean {
  return state.status === 'unused' || state.tupleHash === tupleHash;
}
