import { type IntentQuotedData } from './intent-session.events';
import { replayedQuoteResponse } from './replayed-quote-response';

const group = (outputTargetId: string, quoteStatus: 'ready' | 'unavailable') => ({
  outputTargetId,
  quoteStatus,
  selectedRouteId: quoteStatus === 'ready' ? `r-${outputTargetId}` : null,
  evaluations: [],
});
const stored = (quoteStatus: 'ready' | 'partial_only' | 'unavailable'): IntentQuotedData =>
  ({
    intentSessionId: 'is_1',
    partnerId: 'p',
    quotedAt: 1_000,
    expiresAt: 61_000,
    response: {
      quoteStatus,
      intentSessionId: 'is_1',
      expiresAt: new Date(61_000).toISOString(),
      coverageMode: 'full',
      selectedPlan: null,
      failedSources: [],
      routeEvaluations: [group('base', 'ready'), group('arb', 'unavailable')],
    },
  }) as unknown as IntentQuotedData;

describe('the response a quote replay re-sends', () => {
  it('before expiresAt: the stored response as first sent', () => {
    // given a session quoted at 1 s, expiring at 61 s; when replayed at 60.999 s
    const quote = stored('partial_only');
    // then
    expect(replayedQuoteResponse(quote, 60_999)).toBe(quote.response);
  });

  it.each(['ready', 'partial_only', 'unavailable'] as const)(
    'once expiresAt has passed, a %s session and every target group say expired; nothing else changes',
    (status) => {
      const quote = stored(status);
      const replay = replayedQuoteResponse(quote, 61_000);
      expect([replay.quoteStatus, ...replay.routeEvaluations.map((g) => g.quoteStatus)]).toEqual([
        'expired',
        'expired',
        'expired',
      ]);
      expect({
        ...replay,
        quoteStatus: status,
        routeEvaluations: replay.routeEvaluations.map((g, i) => ({
          ...g,
          quoteStatus: quote.response.routeEvaluations[i].quoteStatus,
        })),
      }).toEqual(quote.response);
      // the stored event is not mutated
      expect(quote.response.routeEvaluations[0].quoteStatus).toBe('ready');
    },
  );
});
