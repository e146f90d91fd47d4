import { type AcquireLease, type LeaseCommand, type ReleaseLease } from './lease.commands';
import { type LeaseEvent } from './lease.events';
import { type LeaseState } from './lease.state';
import { LeaseRefusedError } from './lease-refused.error';

/**
 * The lease rules of one shard: the events a command appends ([] when it changes nothing). Taking a lease another
 * owner holds, before it ends, throws LeaseRefusedError.
 */
export function decideLease(command: LeaseCommand, state: LeaseState): LeaseEvent[] {
  switch (command.type) {
    case 'AcquireLease':
      return acquire(command.data, state);
    case 'ReleaseLease':
      return release(command.data, state);
  }
}

function acquire({ owner, now, ttlMs }: AcquireLease['data'], state: LeaseState): LeaseEvent[] {
  const until = now + ttlMs;
  if (state.owner === owner) return [{ type: 'LeaseRenewed', data: { owner, until, at: now } }];
  if (state.owner !== null && state.until > now) {
    throw new LeaseRefusedError('held_by_other', state.owner, state.until);
  }
  return [{ type: 'LeaseAcquired', data: { owner, until, at: now } }];
}

function release({ owner, now }: ReleaseLease['data'], state: LeaseState): LeaseEvent[] {
  return state.owner === owner ? [{ type: 'LeaseReleased', data: { owner, at: now } }] : [];
}
