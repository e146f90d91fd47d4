import { deciderSpec } from '@svc/testing';
import { type IntentSessionCommand } from './intent-session.commands';
import { intentSessionDecider } from './intent-session.decider';
import { type IntentQuotedData, type IntentSessionEvent } from './intent-session.events';
import { IntentSessionRefusedError } from './intent-session-refused.error';

const session = deciderSpec(intentSessionDecider);
const quote = (status: 'ready' | 'partial_only' | 'unavailable' = 'ready'): IntentQuotedData =>
  ({
    intentSessionId: 'is_1',
    partnerId: 'p',
    quotedAt: 1_000,
    expiresAt: 61_000,
    response: { quoteStatus: status },
  }) as unknown as IntentQuotedData;
const quoted = (status?: 'ready' | 'partial_only' | 'unavailable'): IntentSessionEvent => ({
  type: 'IntentQuoted',
  data: quote(status),
});
const claim = (attemptId: string, now = 2_000, partnerId = 'p'): IntentSessionCommand => ({
  type: 'ClaimForAttempt',
  data: { partnerId, attemptId, idempotencyKey: 'k', now },
});
const prepared = (attemptId: string): IntentSessionEvent => ({
  type: 'IntentPrepared',
  data: { attemptId, idempotencyKey: 'k', preparedAt: 2_000 },
});

describe('the intent session decider', () => {
  it('records a quote once: a replay of the same session records nothing', () => {
    session
      .given([])
      .when({ type: 'RecordQuote', data: { quote: quote() } })
      .then([quoted()]);
    session
      .given([quoted()])
      .when({ type: 'RecordQuote', data: { quote: quote('unavailable') } })
      .then([]);
  });

  it('claims a ready quote for an attempt; the same attempt again is nothing new', () => {
    session
      .given([quoted()])
      .when(claim('at_1'))
      .then([prepared('at_1')]);
    session
      .given([quoted(), prepared('at_1')])
      .when(claim('at_1'))
      .then([]);
  });

  it.each([
    ['no session', [], claim('at_1'), 'intent_session_not_found'],
    ["another partner's session", [quoted()], claim('at_1', 2_000, 'q'), 'intent_session_not_found'],
    ['an expired quote', [quoted()], claim('at_1', 61_000), 'intent_session_expired'],
    ['a partial quote', [quoted('partial_only')], claim('at_1'), 'intent_session_not_ready'],
    ['an unavailable quote', [quoted('unavailable')], claim('at_1'), 'intent_session_not_ready'],
    [
      'an expired quote that was not ready either',
      [quoted('partial_only')],
      claim('at_1', 61_000),
      'intent_session_expired',
    ],
    [
      'a session another attempt prepared',
      [quoted(), prepared('at_1')],
      claim('at_2'),
      'intent_session_already_prepared',
    ],
    // The order partners see: expiry is reported before "already prepared".
    [
      'an expired session another attempt prepared',
      [quoted(), prepared('at_1')],
      claim('at_2', 70_000),
      'intent_session_expired',
    ],
  ] as const)('refuses %s', (_name, events, command, code) => {
    session
      .given([...events])
      .when(command)
      .thenThrows(IntentSessionRefusedError);
    const state = events.reduce(intentSessionDecider.evolve, intentSessionDecider.initialState);
    let thrown: unknown;
    try {
      intentSessionDecider.decide(command, state);
    } catch (err) {
      thrown = err;
    }
    expect((thrown as IntentSessionRefusedError).code).toBe(code);
  });
});
