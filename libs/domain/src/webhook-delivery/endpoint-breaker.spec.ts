import { deciderSpec } from '@svc/testing';
import { type EndpointBreakerCommand } from './endpoint-breaker.commands';
import { endpointBreakerDecider } from './endpoint-breaker.decider';
import { type EndpointBreakerEvent } from './endpoint-breaker.events';
import { endpointTryOutcome } from './endpoint-try-outcome';

const T0 = 1_000_000;
const COOL_DOWN = 30_000;
const breaker = deciderSpec(endpointBreakerDecider({ failureThreshold: 3, coolDownMs: COOL_DOWN }));

// Commands
const start = (now: number): EndpointBreakerCommand => ({ type: 'StartEndpointTry', data: { now } });
const answered = (now: number): EndpointBreakerCommand => ({
  type: 'RecordEndpointTry',
  data: { now, outcome: 'answered' },
});
const withdraw = (now: number): EndpointBreakerCommand => ({ type: 'WithdrawEndpointTry', data: { now } });
const unavailable = (now: number): EndpointBreakerCommand => ({
  type: 'RecordEndpointTry',
  data: { now, outcome: 'unavailable' },
});

// Events
const started = (at: number, trial = false): EndpointBreakerEvent => ({
  type: 'EndpointTryStarted',
  data: { at, trial },
});
const failed = (at: number, failures: number): EndpointBreakerEvent => ({
  type: 'EndpointFailed',
  data: { at, failures },
});
const opened = (at: number): EndpointBreakerEvent => ({
  type: 'EndpointOpened',
  data: { at, retryAt: at + COOL_DOWN },
});
const recovered = (at: number): EndpointBreakerEvent => ({ type: 'EndpointAnswered', data: { at } });

/** Three unavailable tries in a row: the breaker opened at T0 + 3. */
const openedAtT0: EndpointBreakerEvent[] = [
  failed(T0 + 1, 1),
  failed(T0 + 2, 2),
  failed(T0 + 3, 3),
  opened(T0 + 3),
];

describe('the endpoint breaker', () => {
  describe('closed', () => {
    it('lets a try start', () => {
      breaker
        .given([])
        .when(start(T0))
        .then([started(T0)]);
    });

    it('counts an unavailable try', () => {
      breaker
        .given([failed(T0, 1)])
        .when(unavailable(T0 + 1))
        .then([failed(T0 + 1, 2)]);
    });

    it('opens at the threshold of unavailable tries in a row', () => {
      breaker
        .given([failed(T0 + 1, 1), failed(T0 + 2, 2)])
        .when(unavailable(T0 + 3))
        .then([failed(T0 + 3, 3), opened(T0 + 3)]);
    });

    it('starts the count over when the endpoint answers', () => {
      breaker
        .given([failed(T0 + 1, 1), failed(T0 + 2, 2)])
        .when(answered(T0 + 3))
        .then([recovered(T0 + 3)]);
      breaker
        .given([failed(T0 + 1, 1), failed(T0 + 2, 2), recovered(T0 + 3)])
        .when(unavailable(T0 + 4))
        .then([failed(T0 + 4, 1)]);
    });

    it('records nothing for an answer when nothing failed', () => {
      breaker
        .given([started(T0)])
        .when(answered(T0 + 1))
        .then([]);
    });
  });

  describe('open', () => {
    it('lets no try start during the cool-down', () => {
      breaker
        .given(openedAtT0)
        .when(start(T0 + 3 + COOL_DOWN - 1))
        .then([]);
    });

    it('lets one trial start once the cool-down is over', () => {
      breaker
        .given(openedAtT0)
        .when(start(T0 + 3 + COOL_DOWN))
        .then([started(T0 + 3 + COOL_DOWN, true)]);
    });

    it('only counts a failure of a try started before it opened, without extending the cool-down', () => {
      breaker
        .given(openedAtT0)
        .when(unavailable(T0 + 10))
        .then([failed(T0 + 10, 4)]);
    });

    it('closes when a try started before it opened is answered after all', () => {
      breaker
        .given(openedAtT0)
        .when(answered(T0 + 10))
        .then([recovered(T0 + 10)]);
    });
  });

  describe('half-open', () => {
    const trialAt = T0 + 3 + COOL_DOWN;
    const trialOut = [...openedAtT0, started(trialAt, true)];

    it('lets no second try start while the trial is out', () => {
      breaker
        .given(trialOut)
        .when(start(trialAt + 1))
        .then([]);
    });

    it('closes when the trial is answered', () => {
      breaker
        .given(trialOut)
        .when(answered(trialAt + 50))
        .then([recovered(trialAt + 50)]);
      breaker
        .given([...trialOut, recovered(trialAt + 50)])
        .when(start(trialAt + 51))
        .then([started(trialAt + 51)]);
    });

    it('lets another trial start at once when the trial sent nothing', () => {
      breaker
        .given(trialOut)
        .when(withdraw(trialAt + 5))
        .then([{ type: 'EndpointTrialWithdrawn', data: { at: trialAt + 5 } }]);
      breaker
        .given([...trialOut, { type: 'EndpointTrialWithdrawn', data: { at: trialAt + 5 } }])
        .when(start(trialAt + 6))
        .then([started(trialAt + 6, true)]);
    });

    it('opens again for a whole cool-down when the trial fails', () => {
      breaker
        .given(trialOut)
        .when(unavailable(trialAt + 50))
        .then([failed(trialAt + 50, 4), opened(trialAt + 50)]);
      breaker
        .given([...trialOut, failed(trialAt + 50, 4), opened(trialAt + 50)])
        .when(start(trialAt + 50 + COOL_DOWN - 1))
        .then([]);
    });
  });
});

describe('endpointTryOutcome', () => {
  const failure = (status: number | null) =>
    ({
      kind: 'failure',
      status,
      error: status === null ? 'timeout' : `http_${status}`,
      retryAfterMs: null,
    }) as const;

  it('counts no answer, a 5xx and a 429 as unavailable', () => {
    expect([null, 500, 503, 429].map((status) => endpointTryOutcome(failure(status)))).toEqual([
      'unavailable',
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
  });

  it('counts any other answer as the endpoint answering: a success, 410, a refusal, a redirect', () => {
    expect(endpointTryOutcome({ kind: 'success', status: 204 })).toBe('answered');
    expect(endpointTryOutcome({ kind: 'gone', status: 410 })).toBe('answered');
    expect([400, 401, 404, 302].map((status) => endpointTryOutcome(failure(status)))).toEqual([
      'answered',
      'answered',
      'answered',
      'answered',
    ]);
  });
});
