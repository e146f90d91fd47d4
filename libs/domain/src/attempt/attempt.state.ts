import { type AttemptEvent, type AttemptState } from './attempt.events';

export const initialAttemptState: AttemptState = { status: 'none' };

export function evolveAttempt(state: AttemptState, event: AttemptEvent): AttemptState {
  switch (event.type) {
    case 'AttemptPrepared':
      return state.status === 'none' ? { status: 'prepared', prepared: event.data } : state;
  }
}
