import { type Decider } from '@svc/contract';
import { type EventStore, type ReadStreamOptions, type RecordedEvent } from './event-store.port';
import { MalformedEventError } from './malformed-event.error';
import { noteStoredEventProblem } from './stored-event-problems';

/** A stored event as its decider knows it: its type and data. */
export interface StreamEvent {
  type: string;
  data: object;
}

/**
 * Which events to fold: the stream's beginning (`maxCount: revision + 1`: the state right after one event), or its
 * end (`direction: 'backwards', maxCount: 1`: for streams whose newest event states everything, such as a lease).
 * Events are folded in stream order either way.
 */
export type AggregateRead = Pick<ReadStreamOptions, 'direction' | 'maxCount'>;

/**
 * A stream folded by its decider: the state and the revision it was read at, that of the newest event read
 * ('no_stream' for a stream with no events). The one place where a stored event becomes a domain event: its type
 * and data are the decider's own, as handleCommand appended them (see foldStoredEvents for those that are not).
 */
export async function aggregateStream<State, Command, Event extends StreamEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  read?: AggregateRead,
): Promise<{ state: State; revision: number | 'no_stream' }> {
  const recorded = await store.readStream(streamId, read);
  const events = read?.direction === 'backwards' ? recorded.reverse() : recorded;
  const state = foldStoredEvents(decider, decider.initialState, events);
  return { state, revision: events.at(-1)?.revision ?? 'no_stream' };
}

/**
 * Folds stored events of one stream, in stream order, onto `state` with their decider's evolve: what aggregateStream
 * does, for a reader that holds a fold already and reads only the events after it.
 *
 * - An event of a type the decider does not know (`knownEventTypes`; a newer build's, during a rolling deploy) is
 *   skipped: the stream folds as if it were not there. It is counted and logged once per decider and type.
 * - An event of a known type without the shape the decider folds (`isEvent`: data a plain object with the fields
 *   evolve reads), or one whose fold gives no state, refuses the stream: MalformedEventError (its stream, revision
 *   and type), counted and logged once per event. Only reads and commands of that stream fail.
 *
 * A decider that names neither has every stored event folded as it is.
 */
export function foldStoredEvents<State, Command, Event extends StreamEvent>(
  decider: Decider<State, Command, Event>,
  state: State,
  events: readonly RecordedEvent[],
): State {
  let folded = state;
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data as unknown };
    if (decider.knownEventTypes !== undefined && !decider.knownEventTypes.has(event.type)) {
      noteStoredEventProblem({ kind: 'unknown_type', ...where(decider, recorded) });
      continue;
    }
    const next =
      decider.isEvent === undefined || decider.isEvent(event)
        ? decider.evolve(folded, event as Event)
        : undefined;
    if (next === undefined) {
      const problem = { kind: 'malformed', ...where(decider, recorded) } as const;
      noteStoredEventProblem(problem);
      throw new MalformedEventError(problem.streamId, problem.revision, problem.type, problem.decider);
    }
    folded = next;
  }
  return folded;
}

function where(decider: { name?: string }, event: RecordedEvent) {
  const { streamId, revision, type } = event;
  return { decider: decider.name ?? streamId.split('-')[0], type, streamId, revision };
}
