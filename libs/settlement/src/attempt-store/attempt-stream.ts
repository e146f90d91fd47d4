import {
  type AttemptCommand,
  attemptDecider,
  type AttemptRecord,
  AttemptRefusedError,
  attemptStreamId,
} from '@svc/domain';
import { aggregateStream, type EventStore, handleCommand } from '@svc/event-store';

/** The attempt as its stream says (and the revision read), or null when it does not exist or is not this partner's. */
export async function loadAttempt(
  store: EventStore,
  attemptId: string,
  partnerId: string | null,
): Promise<{ record: AttemptRecord; revision: number } | null> {
  const { state, revision } = await aggregateStream(store, attemptStreamId(attemptId), attemptDecider);
  if (state.status === 'none' || revision === 'no_stream') return null;
  if (partnerId !== null && state.prepared.partnerId !== partnerId) return null;
  return { record: state, revision };
}

/**
 * Runs one attempt command through the command seam (handleCommand): decided against the stream, appended at the
 * revision read, decided again on a concurrent append. Event ids derive from `stepId` and the revision read, so the
 * same decision retried at the same revision is a no-op, while the same kind of step later is new. Returns the
 * attempt after it, or null when there is no such attempt.
 */
export async function decideAndAppend(
  store: EventStore,
  attemptId: string,
  stepId: string,
  command: AttemptCommand,
): Promise<AttemptRecord | null> {
  return (await decideAndAppendAt(store, attemptId, stepId, command))?.record ?? null;
}

/** decideAndAppend, also telling the stream revision the returned record was folded at. */
export async function decideAndAppendAt(
  store: EventStore,
  attemptId: string,
  stepId: string,
  command: AttemptCommand,
): Promise<{ record: AttemptRecord; revision: number } | null> {
  try {
    const { state, revision } = await handleCommand(
      store,
      attemptStreamId(attemptId),
      attemptDecider,
      command,
      {
        stepId,
      },
    );
    return state.status === 'none' || revision === 'no_stream' ? null : { record: state, revision };
  } catch (err) {
    if (err instanceof AttemptRefusedError && err.code === 'attempt_not_found') return null;
    throw err;
  }
}
