import { type QuoteStatus } from '@svc/contract';
import { type IntentQuotedData, type IntentSessionEvent } from './intent-session.events';

export type IntentSessionState =
  | { status: 'none' }
  | { status: 'quoted'; quote: IntentQuotedData }
  | { status: 'prepared'; quote: IntentQuotedData; attemptId: string };

export const initialIntentSessionState: IntentSessionState = { status: 'none' };

export function evolveIntentSession(
  state: IntentSessionState,
  event: IntentSessionEvent,
): IntentSessionState {
  switch (event.type) {
    case 'IntentQuoted':
      return state.status === 'none' ? { status: 'quoted', quote: event.data } : state;
    case 'IntentPrepared':
      return state.status === 'quoted'
        ? { status: 'prepared', quote: state.quote, attemptId: event.data.attemptId }
        : state;
    default:
      // A type this build does not know (a newer build's, during a rolling deploy) says nothing it can read.
      return state;
  }
}

/**
 * The quoteStatus a replay reports: `expired` once expiresAt has passed (spec: reported on replay only),
 * otherwise the status the quote was created with. Routing is never re-run.
 */
export function currentQuoteStatus(quote: IntentQuotedData, now: number): QuoteStatus {
  return now >= quote.expiresAt ? 'expired' : quote.response.quoteStatus;
}
