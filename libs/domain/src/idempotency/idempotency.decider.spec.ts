import { deciderSpec } from '@svc/testing';
import { idempotencyDecider, idempotencyStreamId } from './idempotency.decider';
import { accepted, begin, complete, completed, fp, release, released } from './idempotency.fixture';

const key = deciderSpec(idempotencyDecider);

describe('the idempotency decider', () => {
  it('names the stream after the partner and the digest of the key', () => {
    expect(idempotencyStreamId('p', 'ab12')).toBe('idempotency-p-ab12');
  });

  describe('BeginRequest', () => {
    it('accepts a new key for this run, with the fingerprint and a lease', () => {
      key
        .given([])
        .when(begin(5000))
        .then([accepted('req-2', 5000)]);
    });

    it('accepts again once the lease ended (the first process died), or after a release', () => {
      key
        .given([accepted()])
        .when(begin(61_000))
        .then([accepted('req-2', 61_000)]);
      key
        .given([accepted(), released()])
        .when(begin(7000))
        .then([accepted('req-2', 7000)]);
    });

    it('appends nothing when the key may not run: done, reused or still running (see beginOutcome)', () => {
      key.given([accepted(), completed()]).when(begin(5000)).then([]);
      key
        .given([accepted()])
        .when(begin(5000, 'req-2', { ...fp, bodySha256: 'bb' }))
        .then([]);
      key.given([accepted()]).when(begin(5000)).then([]);
    });
  });

  describe.each([
    ['CompleteRequest', complete, completed(3000)],
    ['ReleaseRequest', release, released(3000)],
  ] as const)('%s', (_name, settle, settled) => {
    it('records the result of the run that holds the key', () => {
      key
        .given([accepted('req-1')])
        .when(settle('req-1'))
        .then([settled]);
    });

    it('records for an acceptance stored before runs were named', () => {
      key
        .given([accepted(undefined)])
        .when(settle('req-1'))
        .then([settled]);
    });

    it('records nothing for a run whose key another run took over after its lease ran out', () => {
      key
        .given([accepted('req-1'), accepted('req-2', 61_000)])
        .when(settle('req-1', 62_000))
        .then([]);
    });

    it('records nothing once the key was settled, or for a key never accepted', () => {
      key
        .given([accepted('req-1'), completed()])
        .when(settle('req-1'))
        .then([]);
      key
        .given([accepted('req-1'), released()])
        .when(settle('req-1'))
        .then([]);
      key.given([]).when(settle('req-1')).then([]);
    });
  });
});
