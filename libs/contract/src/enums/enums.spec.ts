import { ATTEMPT_STATUSES, isTerminalAttemptStatus, TERMINAL_ATTEMPT_STATUSES } from './attempt-status';
import { type FailedSourceReasonCode, KNOWN_FAILED_SOURCE_REASON_CODES } from './failed-source-reason-code';
import { isProviderName, PROVIDER_NAMES } from './provider-name';
import { WEBHOOK_EVENT_KINDS } from './webhook-event-kind';

describe('enumerations', () => {
  it('lists the spec provider names', () => {
    expect(PROVIDER_NAMES).toEqual(['relay', 'across', 'mayan', 'symbiosis', 'fly']);
    expect([isProviderName('relay'), isProviderName('all'), isProviderName(1)]).toEqual([true, false, false]);
  });

  it('treats settled, failed and expired as the terminal attempt statuses', () => {
    expect(ATTEMPT_STATUSES.filter(isTerminalAttemptStatus)).toEqual([...TERMINAL_ATTEMPT_STATUSES]);
    expect(TERMINAL_ATTEMPT_STATUSES).toEqual(['settled', 'failed', 'expired']);
  });

  it('has no expired webhook event', () => {
    expect(WEBHOOK_EVENT_KINDS).toEqual(['wallet_submitted', 'provider_pending', 'settled', 'failed']);
  });

  it('keeps reasonCode open to values it does not know', () => {
    const future: FailedSourceReasonCode = 'some_future_reason';
    expect(KNOWN_FAILED_SOURCE_REASON_CODES).not.toContain(future);
    expect(KNOWN_FAILED_SOURCE_REASON_CODES).toContain('amount_too_low');
  });
});
