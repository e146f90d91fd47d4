import { type Decider } from '@svc/contract';
import { type EventStore, type ReadStreamOptions } from './event-store.port';

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
 * and data are the decider's own, as handleCommand appended them.
 */
export async function aggregateStream<State, Command, Event extends StreamEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  read?: AggregateRead,
): Promise<{ state: State; revision: number | 'no_stream' }> {
  const recorded = await store.readStream(streamId, read);
  const events = read?.direction === 'backwards' ? recorded.reverse() : recorded;
  const state = events.reduce(
    (s, e) => decider.evolve(s, { type: e.type, data: e.data } as Event),
    decider.initialState,
  );
  return { state, revision: events.at(-1)?.revision ?? 'no_stream' };
}
