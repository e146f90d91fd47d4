import { type ErrorCode } from '@svc/contract';
import { currentQuoteStatus, type IntentSessionState } from '@svc/domain';

export type PreconditionFailure = { code: ErrorCode; message: string };

/**
 * The order partners see (issue "Prepare"): unknown or another partner's session → 404; expired → 409; not
 * ready → 409; already prepared under another Idempotency-Key → 409. Body errors come after these.
 */
export function checkPreconditions(
  state: IntentSessionState,
  partnerId: string,
  attemptId: string,
  now: number,
): PreconditionFailure | null {
  if (state.status === 'none' || state.quote.partnerId !== partnerId) {
    return { code: 'intent_session_not_found', message: 'no intent session with this id' };
  }
  const status = currentQuoteStatus(state.quote, now);
  if (status === 'expired')
    return { code: 'intent_session_expired', message: 'the quote expired; request a new quote' };
  if (status !== 'ready') {
    return {
      code: 'intent_session_not_ready',
      message: `the intent session is ${status}; only a ready quote can be prepared`,
    };
  }
  if (state.status === 'prepared' && state.attemptId !== attemptId) {
    return {
      code: 'intent_session_already_prepared',
      message: 'this intent session was already prepared under another Idempotency-Key',
    };
  }
  return null;
}
