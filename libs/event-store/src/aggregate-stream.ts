import { type Decider } from '@svc/contract';
import { type EventStore, type ReadStreamOptions } from './event-store.port';

/** A stored event as its decider knows it: its type and data. */
export interface StreamEvent {
  type: string;
  data: object;
}

/**
 * A stream folded by its decider: the state and the revision it was read at ('no_stream' for a stream with no
 * events). The one place where a stored event becomes a domain event: its type and data are the decider's own, as
 * handleCommand appended them.
 */
export async function aggregateStream<State, Command, Event extends StreamEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  /** To fold only the stream's beginning (e.g. the state right after one event: `maxCount: revision + 1`). */
  read?: Pick<ReadStreamOptions, 'maxCount'>,
): Promise<{ state: State; revision: number | 'no_stream' }> {
  const events = await store.readStream(streamId, read);
  const state = events.reduce(
    (s, e) => decider.evolve(s, { type: e.type, data: e.data } as Event),
    decider.initialState,
  );
  return { state, revision: events.at(-1)?.revision ?? 'no_stream' };
}
