import { type IntentQuotedData, type IntentSessionState } from '@svc/domain';
import { checkPreconditions } from './check-preconditions';

const quote = (status: string, partnerId = 'p1') =>
  ({ partnerId, expiresAt: 10_000, response: { quoteStatus: status } }) as unknown as IntentQuotedData;
const quoted = (status = 'ready', partnerId = 'p1'): IntentSessionState => ({
  status: 'quoted',
  quote: quote(status, partnerId),
});
const code = (state: IntentSessionState, now = 5_000, attemptId = 'at_mine') =>
  checkPreconditions(state, 'p1', attemptId, now)?.code ?? 'ok';

describe('prepare preconditions, in order', () => {
  it.each([
    ['unknown session', { status: 'none' }, 5_000, 'intent_session_not_found'],
    ["another partner's session", quoted('ready', 'p2'), 5_000, 'intent_session_not_found'],
    ['expired (even if not ready)', quoted('partial_only'), 10_000, 'intent_session_expired'],
    ['partial_only', quoted('partial_only'), 5_000, 'intent_session_not_ready'],
    ['unavailable', quoted('unavailable'), 5_000, 'intent_session_not_ready'],
    [
      'prepared under another key',
      { status: 'prepared', quote: quote('ready'), attemptId: 'at_other' },
      5_000,
      'intent_session_already_prepared',
    ],
    [
      'expired beats already prepared',
      { status: 'prepared', quote: quote('ready'), attemptId: 'at_other' },
      10_001,
      'intent_session_expired',
    ],
    ['ready', quoted('ready'), 9_999, 'ok'],
    [
      'prepared by this very key (recovery)',
      { status: 'prepared', quote: quote('ready'), attemptId: 'at_mine' },
      5_000,
      'ok',
    ],
  ] as [string, IntentSessionState, number, string][])('%s → %s', (_name, state, now, expected) => {
    expect(code(state, now)).toBe(expected);
  });
});
