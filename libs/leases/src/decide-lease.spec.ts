import { deciderSpec } from '@svc/testing';
import { evolveLease } from './evolve-lease';
import { type LeaseCommand } from './lease.commands';
import { leaseDecider } from './lease.decider';
import { type LeaseEvent } from './lease.events';
import { initialLeaseState } from './lease.state';

const lease = deciderSpec(leaseDecider);

const T0 = 1_000_000;
const TTL = 30_000;

const acquired = (owner: string, at: number, until = at + TTL): LeaseEvent => ({
  type: 'LeaseAcquired',
  data: { owner, until, at },
});
const renewed = (owner: string, at: number, until = at + TTL): LeaseEvent => ({
  type: 'LeaseRenewed',
  data: { owner, until, at },
});
const released = (owner: string, at: number): LeaseEvent => ({ type: 'LeaseReleased', data: { owner, at } });
const acquire = (owner: string, now: number): LeaseCommand => ({
  type: 'AcquireLease',
  data: { owner, now, ttlMs: TTL },
});
const release = (owner: string, now: number): LeaseCommand => ({
  type: 'ReleaseLease',
  data: { owner, now },
});
const heldBy = (holder: string, until: number) =>
  expect.objectContaining({ name: 'LeaseRefusedError', reason: 'held_by_other', holder, until });

describe('AcquireLease', () => {
  it('takes a lease never held', () => {
    lease
      .given([])
      .when(acquire('a', T0))
      .then([acquired('a', T0)]);
  });

  it('takes a lease its holder released, even before the released lease would have ended', () => {
    lease
      .given([acquired('b', T0), released('b', T0 + 1_000)])
      .when(acquire('a', T0 + 2_000))
      .then([acquired('a', T0 + 2_000)]);
  });

  it('renews a lease the owner holds, from now', () => {
    lease
      .given([acquired('a', T0)])
      .when(acquire('a', T0 + 10_000))
      .then([renewed('a', T0 + 10_000)]);
  });

  it('renews its own lease even after it expired, as long as nobody took it', () => {
    lease
      .given([acquired('a', T0), renewed('a', T0 + 10_000)])
      .when(acquire('a', T0 + 60_000))
      .then([renewed('a', T0 + 60_000)]);
  });

  it('refuses a lease another owner holds until it ends', () => {
    lease
      .given([acquired('b', T0)])
      .when(acquire('a', T0 + TTL - 1))
      .thenThrows(heldBy('b', T0 + TTL));
  });

  it('refuses while a renewal keeps the other owner live past its first lease', () => {
    lease
      .given([acquired('b', T0), renewed('b', T0 + 10_000)])
      .when(acquire('a', T0 + TTL + 1))
      .thenThrows(heldBy('b', T0 + 10_000 + TTL));
  });

  it('takes over another owner’s lease the moment it ends', () => {
    lease
      .given([acquired('b', T0)])
      .when(acquire('a', T0 + TTL))
      .then([acquired('a', T0 + TTL)]);
  });
});

describe('ReleaseLease', () => {
  it('hands back the owner’s lease', () => {
    lease
      .given([acquired('a', T0)])
      .when(release('a', T0 + 5_000))
      .then([released('a', T0 + 5_000)]);
  });

  it('does nothing for another owner’s lease', () => {
    lease
      .given([acquired('b', T0)])
      .when(release('a', T0 + 5_000))
      .then([]);
  });

  it('does nothing for a lease nobody holds', () => {
    lease.given([]).when(release('a', T0)).then([]);
    lease
      .given([acquired('a', T0), released('a', T0 + 1)])
      .when(release('a', T0 + 2))
      .then([]);
  });
});

describe('evolveLease', () => {
  const fold = (events: LeaseEvent[]) => events.reduce(evolveLease, initialLeaseState);

  it('starts with nobody holding the lease', () => {
    expect(fold([])).toEqual({ owner: null, until: 0 });
  });

  it('ignores an event type it does not know (written by a newer version)', () => {
    const unknown = { type: 'LeaseTransferred', data: { owner: 'b', until: T0 } } as unknown as LeaseEvent;
    expect(fold([acquired('a', T0), unknown])).toEqual(fold([acquired('a', T0)]));
  });

  it('tells the command seam which stored events it folds: its own types, with data an object', () => {
    expect(leaseDecider.knownEventTypes?.has('LeaseTransferred')).toBe(false);
    expect(
      [acquired('a', T0), renewed('a', T0), released('a', T0)].every((e) => leaseDecider.isEvent?.(e)),
    ).toBe(true);
    expect(leaseDecider.isEvent?.({ type: 'LeaseAcquired', data: null })).toBe(false);
  });

  it('is stated whole by the newest event (the stream may be trimmed)', () => {
    const history = [acquired('a', T0), renewed('a', T0 + 10_000), released('a', T0 + 15_000)];
    history.forEach((_, i) => {
      expect(fold(history.slice(i))).toEqual(fold(history));
      expect(fold(history.slice(0, i + 1))).toEqual(evolveLease(initialLeaseState, history[i]));
    });
  });

  it('takes holder and end from acquisitions and renewals', () => {
    expect(fold([acquired('a', T0), renewed('a', T0 + 10_000)])).toEqual({
      owner: 'a',
      until: T0 + 10_000 + TTL,
    });
  });
});
