import { type Decider } from '@svc/contract';
import { type EndpointBreakerCommand, type EndpointTryOutcome } from './endpoint-breaker.commands';
import { type EndpointBreakerEvent } from './endpoint-breaker.events';
import {
  type BreakerPolicy,
  type EndpointBreakerState,
  initialEndpointBreakerState,
} from './endpoint-breaker.state';

/**
 * The circuit breaker of a partner's callback URL (security review M8): after `failureThreshold` unavailable tries
 * in a row no try goes out for `coolDownMs`, then a single trial decides. StartEndpointTry gives [] when no try may
 * start now; a try that started is always ended with RecordEndpointTry, or WithdrawEndpointTry when it sent nothing. A try started before the breaker opened
 * may still finish while it is open: an answer then closes it, a failure only counts.
 */
export function endpointBreakerDecider(
  policy: BreakerPolicy,
): Decider<EndpointBreakerState, EndpointBreakerCommand, EndpointBreakerEvent> {
  return {
    initialState: initialEndpointBreakerState,
    evolve: evolveEndpointBreaker,
    decide: (command, state) => {
      switch (command.type) {
        case 'StartEndpointTry':
          return startTry(state, command.data.now);
        case 'RecordEndpointTry':
          return recordTry(state, command.data.now, command.data.outcome, policy);
        case 'WithdrawEndpointTry':
          return state.status === 'half_open'
            ? [{ type: 'EndpointTrialWithdrawn', data: { at: command.data.now } }]
            : [];
      }
    },
  };
}

function startTry(state: EndpointBreakerState, at: number): EndpointBreakerEvent[] {
  switch (state.status) {
    case 'closed':
      return [{ type: 'EndpointTryStarted', data: { at, trial: false } }];
    case 'open':
      return at < state.retryAt ? [] : [{ type: 'EndpointTryStarted', data: { at, trial: true } }];
    case 'half_open':
      return [];
  }
}

function recordTry(
  state: EndpointBreakerState,
  at: number,
  outcome: EndpointTryOutcome,
  policy: BreakerPolicy,
): EndpointBreakerEvent[] {
  if (outcome === 'answered') {
    return state.status === 'closed' && state.failures === 0
      ? []
      : [{ type: 'EndpointAnswered', data: { at } }];
  }
  const failures = state.failures + 1;
  const failed: EndpointBreakerEvent = { type: 'EndpointFailed', data: { at, failures } };
  const opens =
    state.status === 'half_open' || (state.status === 'closed' && failures >= policy.failureThreshold);
  return opens
    ? [failed, { type: 'EndpointOpened', data: { at, retryAt: at + policy.coolDownMs } }]
    : [failed];
}

export function evolveEndpointBreaker(
  state: EndpointBreakerState,
  event: EndpointBreakerEvent,
): EndpointBreakerState {
  switch (event.type) {
    case 'EndpointTryStarted':
      return event.data.trial ? { status: 'half_open', failures: state.failures } : state;
    case 'EndpointAnswered':
      return { status: 'closed', failures: 0 };
    case 'EndpointFailed':
      return { ...state, failures: event.data.failures };
    case 'EndpointOpened':
      return { status: 'open', failures: state.failures, retryAt: event.data.retryAt };
    case 'EndpointTrialWithdrawn':
      return { status: 'open', failures: state.failures, retryAt: event.data.at };
    default:
      // Kept in memory only, never stored: still, an event it does not know changes nothing.
      return state;
  }
}
