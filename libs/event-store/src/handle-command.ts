import { type Decider } from '@svc/contract';
import { aggregateStream, type StreamEvent } from './aggregate-stream';
import { eventIdFrom } from './event-id-from';
import { type EventStore, type StreamSettings, WrongExpectedVersionError } from './event-store.port';

export interface HandleCommandOptions extends StreamSettings {
  /**
   * Names the step: event ids derive from it, the stream and the revision read, so the same decision retried at the
   * same revision is taken by the store as a retry, while the same kind of step later (at another revision) is new.
   */
  stepId: string;
  /**
   * The step happens at most once in the stream's life, whatever the revision: ids derive from the step alone, so a
   * second run of it (a stalled worker after a newer one, a redelivery) is taken by the store as a retry even when
   * the decider would decide it again. For steps named after what they record once (a delivery try, a queued event).
   */
  once?: boolean;
  /** Concurrent appends tolerated before giving up (each re-reads and decides again). Default 5. */
  maxRetries?: number;
}

/** What one command did: the events it appended, and the state and revision after them. */
export interface CommandResult<State, Event> {
  events: Event[];
  state: State;
  revision: number | 'no_stream';
}

/** handleCommand gave up: the stream kept changing under it. */
export class TooManyConcurrentAppendsError extends Error {
  override readonly name = 'TooManyConcurrentAppendsError';
  constructor(readonly streamId: string) {
    super(`stream ${streamId}: too many concurrent appends`);
  }
}

/**
 * The one command seam (emmett's handleCommandWithDecider, EventSourcing.NodeJS's commandHandling): read the stream,
 * fold it, decide, append at the revision read, and on a concurrent append (and only then) read, fold and decide
 * again. Refusals the decider throws pass through; nothing is appended for them.
 */
export async function handleCommand<State, Command, Event extends StreamEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  { stepId, once = false, maxRetries = 5, ...settings }: HandleCommandOptions,
): Promise<CommandResult<State, Event>> {
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    const { state, revision } = await aggregateStream(store, streamId, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, revision };
    try {
      const appended = await store.append(
        streamId,
        events.map((e, i) => ({
          id: once
            ? eventIdFrom(streamId, stepId, String(i))
            : eventIdFrom(streamId, stepId, String(revision), String(i), e.type),
          type: e.type,
          data: { ...e.data },
        })),
        { expectedRevision: revision, ...settings },
      );
      return {
        events,
        state: events.reduce((s, e) => decider.evolve(s, e), state),
        revision: appended.nextRevision,
      };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
    }
  }
  throw new TooManyConcurrentAppendsError(streamId);
}
