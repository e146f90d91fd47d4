import { type Decider } from '@svc/contract';
import { type ClaimForAttempt, type IntentSessionCommand } from './intent-session.commands';
import { type IntentSessionEvent, intentSessionEventShapes } from './intent-session.events';
import { IntentSessionRefusedError } from './intent-session-refused.error';
import {
  currentQuoteStatus,
  evolveIntentSession,
  initialIntentSessionState,
  type IntentSessionState,
} from './intent-session.state';

/** `intent-<intentSessionId>`: the intent session's stream id. */
export const intentSessionStreamId = (intentSessionId: string) => `intent-${intentSessionId}`;

/**
 * The intent session's rules. A quote is recorded once. Claiming it for an attempt checks, in the order partners
 * see: unknown or another partner's session (404), expired (409), not ready (409), already prepared by another
 * attempt (409); the same attempt claiming a ready session again is nothing new.
 */
export function decideIntentSession(
  command: IntentSessionCommand,
  state: IntentSessionState,
): IntentSessionEvent[] {
  switch (command.type) {
    case 'RecordQuote':
      return state.status === 'none' ? [{ type: 'IntentQuoted', data: command.data.quote }] : [];
    case 'ClaimForAttempt':
      return claim(command.data, state);
  }
}

function claim(data: ClaimForAttempt['data'], state: IntentSessionState): IntentSessionEvent[] {
  const { partnerId, attemptId, idempotencyKey, now } = data;
  if (state.status === 'none' || state.quote.partnerId !== partnerId) {
    throw new IntentSessionRefusedError('intent_session_not_found', 'no intent session with this id');
  }
  const status = currentQuoteStatus(state.quote, now);
  if (status === 'expired')
    throw new IntentSessionRefusedError(
      'intent_session_expired',
      `the quote expired at ${new Date(state.quote.expiresAt).toISOString()} (its expiresAt); request a new quote`,
    );
  if (status !== 'ready') {
    throw new IntentSessionRefusedError(
      'intent_session_not_ready',
      `the intent session is ${status}; only a ready quote can be prepared`,
    );
  }
  if (state.status === 'prepared') {
    if (state.attemptId === attemptId) return [];
    throw new IntentSessionRefusedError(
      'intent_session_already_prepared',
      'this intent session was already prepared under another Idempotency-Key',
    );
  }
  return [{ type: 'IntentPrepared', data: { attemptId, idempotencyKey, preparedAt: now } }];
}

export const intentSessionDecider: Decider<IntentSessionState, IntentSessionCommand, IntentSessionEvent> = {
  name: 'intent-session',
  initialState: initialIntentSessionState,
  evolve: evolveIntentSession,
  decide: decideIntentSession,
  ...intentSessionEventShapes,
};
