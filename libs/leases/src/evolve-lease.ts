import { type LeaseEvent } from './lease.events';
import { type LeaseState } from './lease.state';

export function evolveLease(_state: LeaseState, event: LeaseEvent): LeaseState {
  switch (event.type) {
    case 'LeaseAcquired':
    case 'LeaseRenewed':
      return { owner: event.data.owner, until: event.data.until };
    case 'LeaseReleased':
      return { owner: null, until: event.data.at };
  }
}
