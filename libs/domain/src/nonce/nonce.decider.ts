import { type Decider } from '@svc/contract';
import { type NonceCommand } from './nonce.commands';
import { type NonceEvent, nonceEventShapes } from './nonce.events';
import { NonceRefusedError } from './nonce-refused.error';
import { evolveNonce, initialNonceState, nonceAvailable, type NonceState } from './nonce.state';

/**
 * The nonce's rules: an unused nonce is bound to the tuple; the same tuple again is a retried delivery of the same
 * signed bytes and changes nothing; another tuple is refused.
 */
export function decideNonce(command: NonceCommand, state: NonceState): NonceEvent[] {
  const { tupleHash, now } = command.data;
  if (!nonceAvailable(state, tupleHash)) {
    throw new NonceRefusedError(
      'external_auth_nonce_conflict',
      'this nonce was already used for a different request',
    );
  }
  return state.status === 'unused' ? [{ type: 'NonceUsed', data: { tupleHash, usedAt: now } }] : [];
}

/**
 * One nonce's rules, over that nonce's events (its NonceUsed, taken from its partner's buckets in global order): the
 * stores apply them (the event-store nonce store; the SQLite table's bind).
 */
export const nonceDecider: Decider<NonceState, NonceCommand, NonceEvent> = {
  name: 'nonce',
  initialState: initialNonceState,
  evolve: evolveNonce,
  decide: decideNonce,
  ...nonceEventShapes,
};
