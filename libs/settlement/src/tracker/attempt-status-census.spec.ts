import { AttemptStatusCensus } from './attempt-status-census';

describe('AttemptStatusCensus', () => {
  it('counts each attempt once, in the status of its latest lifecycle event', () => {
    const census = new AttemptStatusCensus();
    census.observe('a', 'AttemptPrepared');
    census.observe('b', 'AttemptPrepared');
    census.observe('c', 'AttemptPrepared');
    census.observe('a', 'EvidenceReported'); // not a lifecycle event
    census.observe('a', 'AttemptWalletSubmitted');
    census.observe('a', 'AttemptProviderPending');
    census.observe('a', 'AttemptSettled');
    census.observe('b', 'AttemptWalletSubmitted');
    census.observe('c', 'AttemptExpired');
    expect(census.counts()).toEqual({
      prepared: 0,
      wallet_submitted: 1,
      provider_pending: 0,
      settled: 1,
      failed: 0,
      expired: 1,
    });
  });

  it('ignores events of attempts it never saw prepared, and anything after a terminal event', () => {
    const census = new AttemptStatusCensus();
    census.observe('late', 'AttemptSettled');
    census.observe('x', 'AttemptPrepared');
    census.observe('x', 'AttemptFailed');
    census.observe('x', 'AttemptSettled');
    expect(census.counts()).toMatchObject({ prepared: 0, settled: 0, failed: 1 });
  });
});
