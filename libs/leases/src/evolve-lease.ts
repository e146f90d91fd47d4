import { LEASE_EVENT_TYPES, type LeaseEvent } from './lease.events';
import { type LeaseState } from './lease.state';

/** Each lease event states the whole lease, so the state before it does not matter (the stream may be trimmed). */
export function evolveLease(state: LeaseState, event: LeaseEvent): LeaseState {
  // A type this version does not know (a newer version's) says nothing about the lease.
  if (!LEASE_EVENT_TYPES.has(event.type)) return state;
  switch (event.type) {
    case 'LeaseAcquired':
    case 'LeaseRenewed':
      return { owner: event.data.owner, until: event.data.until };
    case 'LeaseReleased':
      return { owner: null, until: event.data.at };
  }
}
