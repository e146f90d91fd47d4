import { type Decider } from '@svc/contract';
import { beginOutcome } from './begin-outcome';
import { type BeginRequest, type IdempotencyCommand } from './idempotency.commands';
import { type IdempotencyEvent, idempotencyEventShapes } from './idempotency.events';
import { evolveIdempotency, initialIdempotencyState, type IdempotencyState } from './idempotency.state';

/**
 * `idempotency-<partnerId>-<keyDigest>`, the digest being the key's sha256 in hex: keys are partner-chosen strings
 * of any length and character, the digest is a safe, bounded stream name (hashing is left to the caller, the
 * domain has no crypto).
 */
export const idempotencyStreamId = (partnerId: string, keyDigest: string) =>
  `idempotency-${partnerId}-${keyDigest}`;

/**
 * The Idempotency-Key's rules. Begin accepts the run when beginOutcome says 'run', and appends nothing otherwise.
 * Complete and release record only for the acceptance the run holds: once its lease ran out and another run took
 * the key over, the late result is dropped (the newer run records its own).
 */
export function decideIdempotency(command: IdempotencyCommand, state: IdempotencyState): IdempotencyEvent[] {
  switch (command.type) {
    case 'BeginRequest':
      return beginOutcome(command, state).kind === 'run' ? [accepted(command.data)] : [];
    case 'CompleteRequest': {
      const { requestId, resource, httpStatus, now } = command.data;
      return holds(state, requestId)
        ? [{ type: 'RequestCompleted', data: { resource, httpStatus, completedAt: now } }]
        : [];
    }
    case 'ReleaseRequest': {
      const { requestId, httpStatus, code, now } = command.data;
      return holds(state, requestId)
        ? [{ type: 'RequestReleased', data: { httpStatus, code, releasedAt: now } }]
        : [];
    }
  }
}

function accepted({ fingerprint, requestId, now, leaseMs }: BeginRequest['data']): IdempotencyEvent {
  return {
    type: 'RequestAccepted',
    data: { ...fingerprint, requestId, acceptedAt: now, leaseExpiresAt: now + leaseMs },
  };
}

/** The run's acceptance is the current one (an acceptance stored before runs were named is anyone's). */
function holds(state: IdempotencyState, requestId: string): boolean {
  return state.status === 'in_progress' && (state.requestId ?? requestId) === requestId;
}

/** The idempotency stream's rules, as the command seam runs them (handleCommand, aggregateStream). */
export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  name: 'idempotency',
  initialState: initialIdempotencyState,
  evolve: evolveIdempotency,
  decide: decideIdempotency,
  ...idempotencyEventShapes,
};
