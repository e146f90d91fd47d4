import { ATTEMPT_STATUSES, WEBHOOK_EVENT_KINDS } from '@svc/contract';
import { endsAttempt, LIFECYCLE_STATUS_OF, lifecycleStatusOf, webhookEventOf } from './attempt-lifecycle';

describe('the attempt lifecycle maps (one copy, read by the relay, the tracker and the census)', () => {
  it('every status has exactly one event that puts the attempt in it', () => {
    const statuses = Object.values(LIFECYCLE_STATUS_OF).filter((s) => s !== null);
    expect([...statuses].sort()).toEqual([...ATTEMPT_STATUSES].sort());
  });

  it('announces every webhook kind from its lifecycle event, and nothing for prepared, expiry or a fact', () => {
    const announced = Object.keys(LIFECYCLE_STATUS_OF)
      .map((type) => webhookEventOf(type))
      .filter((k) => k !== null);
    expect([...announced].sort()).toEqual([...WEBHOOK_EVENT_KINDS].sort());
    expect([
      webhookEventOf('AttemptPrepared'),
      webhookEventOf('AttemptExpired'),
      webhookEventOf('LegSettled'),
    ]).toEqual([null, null, null]);
  });

  it('only settled, failed and expired end an attempt; a type the attempt never had means nothing', () => {
    const ending = Object.keys(LIFECYCLE_STATUS_OF).filter(endsAttempt);
    expect(ending.sort()).toEqual(['AttemptExpired', 'AttemptFailed', 'AttemptSettled']);
    expect([
      lifecycleStatusOf('IntentQuoted'),
      lifecycleStatusOf('toString'),
      endsAttempt('toString'),
    ]).toEqual([null, null, false]);
  });
});
