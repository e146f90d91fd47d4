import { attemptDecider, type AttemptRecord, attemptStreamId } from '@svc/domain';
import { type EventStore, type QuarantinedEvent, type RecordedEvent } from '@svc/event-store';
import { foldStream } from './stored-events';

/** One attempt's stream as read, and the attempt folded from exactly those events. */
export interface AttemptRead {
  events: RecordedEvent[];
  record: AttemptRecord;
  refused: null;
}

/** An attempt stream the service refuses: it holds an event the attempt decider does not fold (a finding). */
export interface RefusedAttempt {
  events: RecordedEvent[];
  record: null;
  refused: QuarantinedEvent;
}

/**
 * Reads `attempt-<id>` and folds it with the domain's own decider, as the service does (foldStoredEvents: a type this
 * build does not know is skipped, a malformed event refuses the attempt); null when there is no such attempt.
 */
export async function readAttempt(
  store: EventStore,
  attemptId: string,
): Promise<AttemptRead | RefusedAttempt | null> {
  const events = await store.readStream(attemptStreamId(attemptId));
  const folded = foldStream(attemptDecider, events);
  if (folded.refused !== null) return { events, record: null, refused: folded.refused };
  return folded.state.status === 'none' ? null : { events, record: folded.state, refused: null };
}
