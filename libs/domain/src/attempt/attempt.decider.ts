import { type Decider } from '@svc/contract';
import { type AttemptEvent } from './attempt.events';
import { type AttemptCommand } from './attempt.commands';
import { type AttemptState } from './attempt-record';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import { decideAttempt } from './decide-attempt';

/** `attempt-<attemptId>`: the attempt's stream id. */
export const attemptStreamId = (attemptId: string) => `attempt-${attemptId}`;

/** The attempt stream's rules, as the command seam runs them (handleCommand, aggregateStream). */
export const attemptDecider: Decider<AttemptState, AttemptCommand, AttemptEvent> = {
  initialState: initialAttemptState,
  evolve: evolveAttempt,
  decide: decideAttempt,
};
