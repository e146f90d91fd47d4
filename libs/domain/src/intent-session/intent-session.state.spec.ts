import { type IntentQuotedData, type IntentSessionEvent } from './intent-session.events';
import { currentQuoteStatus, evolveIntentSession, initialIntentSessionState } from './intent-session.state';

const quoted = (status: 'ready' | 'partial_only' | 'unavailable'): IntentQuotedData =>
  ({
    intentSessionId: 'is_1',
    partnerId: 'p',
    quotedAt: 1_000,
    expiresAt: 61_000,
    response: { quoteStatus: status },
  }) as unknown as IntentQuotedData;
const fold = (events: IntentSessionEvent[]) => events.reduce(evolveIntentSession, initialIntentSessionState);

describe('intent session', () => {
  it('is quoted by IntentQuoted, prepared by IntentPrepared, and a second IntentQuoted changes nothing', () => {
    const q = quoted('ready');
    expect(fold([{ type: 'IntentQuoted', data: q }])).toEqual({ status: 'quoted', quote: q });
    expect(
      fold([
        { type: 'IntentQuoted', data: q },
        { type: 'IntentPrepared', data: { attemptId: 'at_1', idempotencyKey: 'k', preparedAt: 2_000 } },
      ]),
    ).toEqual({
      status: 'prepared',
      quote: q,
      attemptId: 'at_1',
    });
    expect(
      fold([
        { type: 'IntentQuoted', data: q },
        { type: 'IntentQuoted', data: quoted('unavailable') },
      ]),
    ).toEqual({ status: 'quoted', quote: q });
  });

  it.each([
    ['ready', 60_999, 'ready'],
    ['ready', 61_000, 'expired'],
    ['partial_only', 10_000, 'partial_only'],
    ['unavailable', 99_000, 'expired'],
  ] as const)('a %s session reports %s at %i ms', (status, now, expected) => {
    expect(currentQuoteStatus(quoted(status), now)).toBe(expected);
  });
});
