import { deciderSpec } from '@svc/testing';
import { beginOutcome } from './begin-outcome';
import { idempotencyDecider } from './idempotency.decider';
import { accepted, begin, completed, fp, released, resource } from './idempotency.fixture';

/** The outcome a BeginRequest has, given the key's history. */
const outcome = deciderSpec({ ...idempotencyDecider, decide: beginOutcome });

describe('beginOutcome', () => {
  it('runs a new key', () => {
    outcome.given([]).when(begin(5000)).then({ kind: 'run' });
  });

  it('replays a completed request with the same bytes', () => {
    outcome.given([accepted(), completed()]).when(begin(5000)).then({ kind: 'replay', resource });
  });

  it.each([
    ['other body', { ...fp, bodySha256: 'bb' }],
    ['other path', { ...fp, path: '/api/external/intents/is_1/prepare' }],
    ['other method', { ...fp, method: 'GET' }],
  ])('refuses the key with an %s, whatever its state', (_n, other) => {
    for (const history of [[accepted()], [accepted(), completed()], [accepted(), released()]]) {
      outcome
        .given(history)
        .when(begin(5000, 'req-2', other))
        .then({ kind: 'reused' });
    }
  });

  it('reports in progress within the lease, with a Retry-After of 1 to 5 s', () => {
    outcome.given([accepted()]).when(begin(5000)).then({ kind: 'in_progress', retryAfterSeconds: 5 });
    outcome.given([accepted()]).when(begin(60_500)).then({ kind: 'in_progress', retryAfterSeconds: 1 });
  });

  it('runs again once the lease ended (the first process died)', () => {
    outcome.given([accepted()]).when(begin(61_000)).then({ kind: 'run' });
  });

  it('runs again after a release (the feature made nothing)', () => {
    outcome.given([accepted(), released()]).when(begin(7000)).then({ kind: 'run' });
  });
});
