import { type Decider } from '@svc/contract';
import { type AttemptEvent, attemptEventShapes } from './attempt.events';
import { type AttemptCommand } from './attempt.commands';
import { type AttemptState } from './attempt-record';
import { evolveAttempt, initialAttemptState } from './attempt.state';
import { decideAttempt } from './decide-attempt';

/** `attempt-<attemptId>`: the attempt's stream id. */
/** Every attempt stream's id starts with this (what a catch-up over the global log filters on). */
export const ATTEMPT_STREAM_PREFIX = 'attempt-';
export const attemptStreamId = (attemptId: string) => `${ATTEMPT_STREAM_PREFIX}${attemptId}`;
/** The attempt an attempt stream belongs to. */
export const attemptIdOfStream = (streamId: string) => streamId.slice(ATTEMPT_STREAM_PREFIX.length);

/** The attempt stream's rules, as the command seam runs them (handleCommand, aggregateStream). */
export const attemptDecider: Decider<AttemptState, AttemptCommand, AttemptEvent> = {
  name: 'attempt',
  initialState: initialAttemptState,
  evolve: evolveAttempt,
  decide: decideAttempt,
  ...attemptEventShapes,
};
