import { deciderSpec } from '@svc/testing';
import { decideIdempotency, evolveIdempotency, initialIdempotencyState } from './idempotency.decider';
import { type IdempotencyEvent } from './idempotency.events';

const spec = deciderSpec({
  initialState: initialIdempotencyState,
  evolve: evolveIdempotency,
  decide: decideIdempotency,
});
const fp = { method: 'POST', path: '/api/external/intents/quote', bodySha256: 'aa' };
const accepted: IdempotencyEvent = {
  type: 'RequestAccepted',
  data: { ...fp, acceptedAt: 1000, leaseExpiresAt: 61_000 },
};
const completed: IdempotencyEvent = {
  type: 'RequestCompleted',
  data: { resource: { kind: 'intent_session', id: 'is_1' }, httpStatus: 200, completedAt: 2000 },
};
const released: IdempotencyEvent = {
  type: 'RequestReleased',
  data: { httpStatus: 501, code: 'not_implemented', releasedAt: 2000 },
};
const runAt = (now: number) => ({
  kind: 'run',
  event: { type: 'RequestAccepted', data: { ...fp, acceptedAt: now, leaseExpiresAt: now + 60_000 } },
});

describe('idempotency decider', () => {
  it('runs a new key and records the fingerprint with a lease', () => {
    spec
      .given([])
      .when({ fingerprint: fp, now: 5000, leaseMs: 60_000 })
      .then(runAt(5000) as never);
  });

  it('replays a completed request with the same bytes', () => {
    spec
      .given([accepted, completed])
      .when({ fingerprint: fp, now: 5000, leaseMs: 60_000 })
      .then({ kind: 'replay', resource: { kind: 'intent_session', id: 'is_1' } });
  });

  it.each([
    ['other body', { ...fp, bodySha256: 'bb' }],
    ['other path', { ...fp, path: '/api/external/intents/is_1/prepare' }],
    ['other method', { ...fp, method: 'GET' }],
  ])('refuses the key with an %s, whatever its state', (_n, other) => {
    for (const history of [[accepted], [accepted, completed], [accepted, released]]) {
      spec.given(history).when({ fingerprint: other, now: 5000, leaseMs: 60_000 }).then({ kind: 'reused' });
    }
  });

  it('reports in progress within the lease, with a Retry-After of 1 to 5 s', () => {
    spec
      .given([accepted])
      .when({ fingerprint: fp, now: 5000, leaseMs: 60_000 })
      .then({ kind: 'in_progress', retryAfterSeconds: 5 });
    spec
      .given([accepted])
      .when({ fingerprint: fp, now: 60_500, leaseMs: 60_000 })
      .then({ kind: 'in_progress', retryAfterSeconds: 1 });
  });

  it('runs again once the lease ended (the first process died)', () => {
    spec
      .given([accepted])
      .when({ fingerprint: fp, now: 61_000, leaseMs: 60_000 })
      .then(runAt(61_000) as never);
  });

  it('runs again after a release (the feature made nothing)', () => {
    spec
      .given([accepted, released])
      .when({ fingerprint: fp, now: 7000, leaseMs: 60_000 })
      .then(runAt(7000) as never);
  });
});
