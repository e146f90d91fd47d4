import { type AcquireLease, type LeaseCommand, type ReleaseLease } from './lease.commands';
import { type LeaseEvent } from './lease.events';
import { type LeaseState } from './lease.state';

export type LeaseRefusalReason =
  /** Another owner holds the lease and it has not expired. */
  'held_by_other';

/** What a lease command comes to: the events to append ([] when it changes nothing), or why it is refused. */
export type LeaseDecision =
  | { kind: 'events'; events: LeaseEvent[] }
  | { kind: 'refused'; reason: LeaseRefusalReason; holder: string; until: number };

/**
 * The lease decider of one shard. A refusal is an answer, not an error: losing a shard to a live holder is the
 * normal case when several instances compete.
 */
export function decideLease(command: LeaseCommand, state: LeaseState): LeaseDecision {
  switch (command.type) {
    case 'AcquireLease':
      return acquire(command.data, state);
    case 'ReleaseLease':
      return release(command.data, state);
  }
}

function acquire({ owner, now, ttlMs }: AcquireLease['data'], state: LeaseState): LeaseDecision {
  const until = now + ttlMs;
  if (state.owner === owner) {
    return { kind: 'events', events: [{ type: 'LeaseRenewed', data: { owner, until, at: now } }] };
  }
  if (state.owner !== null && state.until > now) {
    return { kind: 'refused', reason: 'held_by_other', holder: state.owner, until: state.until };
  }
  return { kind: 'events', events: [{ type: 'LeaseAcquired', data: { owner, until, at: now } }] };
}

function release({ owner, now }: ReleaseLease['data'], state: LeaseState): LeaseDecision {
  if (state.owner !== owner) return { kind: 'events', events: [] };
  return { kind: 'events', events: [{ type: 'LeaseReleased', data: { owner, at: now } }] };
}
