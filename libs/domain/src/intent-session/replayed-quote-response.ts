import { type QuoteResponse } from '@svc/contract';
import { type IntentQuotedData } from './intent-session.events';
import { currentQuoteStatus } from './intent-session.state';

/**
 * The response a quote replay re-sends (spec, "Quote (intent session) states": a replay returns the original
 * intentSessionId with the current quoteStatus; routing is not re-run). Before expiresAt it is the stored response
 * as first sent. Once expiresAt has passed, the session's quoteStatus and each target's routeEvaluations[].quoteStatus
 * say `expired`: a group still saying `ready` read as a quote that could be prepared. Nothing else changes.
 */
export function replayedQuoteResponse(
  quote: IntentQuotedData,
  now: number,
): Omit<QuoteResponse, 'apiVersion'> {
  const quoteStatus = currentQuoteStatus(quote, now);
  if (quoteStatus !== 'expired') return quote.response;
  return {
    ...quote.response,
    quoteStatus,
    routeEvaluations: quote.response.routeEvaluations.map((group) => ({ ...group, quoteStatus })),
  };
}
