import { type Decider } from '@svc/contract';
import { type AggregateRead, aggregateStream, type StreamEvent } from './aggregate-stream';
import { eventIdFrom } from './event-id-from';
import {
  type EventStore,
  type ExpectedRevision,
  type StreamSettings,
  WrongExpectedVersionError,
} from './event-store.port';
import { StreamHistoryExpiredError } from './stream-history-expired.error';

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
  /** Which events the decision is folded from (default: the whole stream); see aggregateStream. */
  read?: AggregateRead;
  /**
   * A stream whose events all expired (maxAgeSeconds) reads as empty but keeps its revision, so an append at
   * 'no_stream' can never go through. 'refuse' (the default) throws StreamHistoryExpiredError: what expired still
   * counts (a nonce stays used). 'start_over' decides on the empty stream and appends after the revision it keeps,
   * for streams whose records lapse on purpose (an idempotency key past its retention is new again).
   */
  expiredHistory?: 'refuse' | 'start_over';
}

/**
 * The stream as the caller last saw it (the state and revision a previous command returned): the first decision is
 * taken on it without reading the stream. Stale is safe: an append at an old revision fails and the command reads,
 * folds and decides again, and so does a refusal decided on it (it may not hold against what is really stored).
 */
export interface KnownStream<State> {
  state: State;
  revision: number | 'no_stream';
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
 * again. Refusals the decider throws pass through; nothing is appended for them. The stream is folded by
 * aggregateStream: a stored event of a type the decider does not know is skipped, a malformed one refuses the
 * command with MalformedEventError (foldStoredEvents).
 */
export async function handleCommand<State, Command, Event extends StreamEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  {
    stepId,
    once = false,
    maxRetries = 5,
    read,
    expiredHistory = 'refuse',
    ...settings
  }: HandleCommandOptions,
  known?: KnownStream<State>,
): Promise<CommandResult<State, Event>> {
  /** The revision kept by a stream found empty: where starting over appends. */
  let keptRevision: number | undefined;
  // Attempt -1 decides on the caller's copy; failing there (stale) is not contention and costs no retry.
  for (let attempt = known === undefined ? 0 : -1; attempt <= maxRetries; attempt++) {
    const guess = attempt === -1 ? known : undefined;
    const { state, revision } = guess ?? (await aggregateStream(store, streamId, decider, read));
    let events: Event[];
    try {
      events = decider.decide(command, state);
    } catch (err) {
      if (guess === undefined) throw err;
      continue; // decided on a copy that may be stale: again on what is stored
    }
    if (events.length === 0) return { events, state, revision };
    const expected: ExpectedRevision = revision === 'no_stream' ? (keptRevision ?? 'no_stream') : revision;
    try {
      const appended = await store.append(
        streamId,
        events.map((e, i) => ({
          id: once
            ? eventIdFrom(streamId, stepId, String(i))
            : eventIdFrom(streamId, stepId, String(expected), String(i), e.type),
          type: e.type,
          data: { ...e.data },
        })),
        { expectedRevision: expected, ...settings },
      );
      return {
        events,
        state: events.reduce((s, e) => decider.evolve(s, e), state),
        revision: appended.nextRevision,
      };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
      if (guess !== undefined) continue;
      // Found empty, yet the stream has a revision: either someone appended since (the next read shows it), or
      // every event expired. Only a second empty read tells the two apart.
      if (revision === 'no_stream' && typeof err.actual === 'number' && (await isEmpty(store, streamId))) {
        if (expiredHistory === 'refuse') throw new StreamHistoryExpiredError(streamId, err.actual);
        keptRevision = err.actual;
      }
    }
  }
  throw new TooManyConcurrentAppendsError(streamId);
}

async function isEmpty(store: EventStore, streamId: string): Promise<boolean> {
  return (await store.readStream(streamId, { direction: 'backwards', maxCount: 1 })).length === 0;
}
