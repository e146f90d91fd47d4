import {
  type AttemptEvent,
  type AttemptRecord,
  attemptStreamId,
  evolveAttempt,
  initialAttemptState,
} from '@svc/domain';
import { type EventStore, type RecordedEvent } from '@svc/event-store';

/** One attempt's stream as read, and the attempt folded from exactly those events. */
export interface AttemptRead {
  events: RecordedEvent[];
  record: AttemptRecord;
}

/** Reads `attempt-<id>` and folds it with the domain's own evolve; null when there is no such attempt. */
export async function readAttempt(store: EventStore, attemptId: string): Promise<AttemptRead | null> {
  const events = await store.readStream(attemptStreamId(attemptId));
  const state = foldAttempt(events);
  return state.status === 'none' ? null : { events, record: state };
}

export function foldAttempt(events: readonly RecordedEvent[]) {
  return events
    .map((event) => ({ type: event.type, data: event.data }) as AttemptEvent)
    .reduce(evolveAttempt, initialAttemptState);
}
