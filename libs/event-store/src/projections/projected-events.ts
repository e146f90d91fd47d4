import { type UncheckedEvent } from '@svc/contract';
import { type StreamEvent } from '../aggregate-stream';
import { type Position } from '../event-store.port';

/** A stored event as a reader of the log gets it: its own type and data, and where it sits in the log. */
export type Projected<E extends StreamEvent> = E & {
  id: string;
  streamId: string;
  revision: number;
  position: Position;
  recordedAt: string;
};

/**
 * What a reader of the log declares about the events it reads, once: the part of a projection that says which
 * stored events become its typed events. `classifyEvent` applies it to each stored event (upcast, type, guard) for
 * every reader of the log: ProjectionRunner's read models, the workers' catch-up (CatchUpWorker), the audit's walks.
 */
export interface ProjectedEvents<E extends StreamEvent = StreamEvent> {
  /** Names the reader in its warnings, its counts and its checkpoint. */
  readonly name: string;
  /** The streams it reads (stream-id prefixes). */
  readonly streamPrefixes: readonly string[];
  /**
   * The event types it handles. Any other type in its streams (one a newer build writes, or one it has no use for)
   * is skipped: counted, and logged once per type and process.
   */
  readonly eventTypes: readonly E['type'][];
  /**
   * Whether a stored event of a handled type has the shape the reader relies on. One that does not is quarantined
   * (its position, type and the reason are recorded) and the reader goes on: one bad event never stops it.
   */
  isEvent(event: StreamEvent): event is E;
  /** Old stored shapes to the current one, before the type check and the guard. */
  upcast?(event: StreamEvent): StreamEvent;
}

/** Declares what a reader of the log reads (typed). */
export function projectedEvents<E extends StreamEvent>(definition: ProjectedEvents<E>): ProjectedEvents<E> {
  return definition;
}

/** A decider's own guards (`storedEventShapes`): the event types its evolve knows and the shape it reads. */
export interface DeciderEventShapes<E extends StreamEvent> {
  knownEventTypes: ReadonlySet<string>;
  isEvent(event: UncheckedEvent): event is UncheckedEvent & E;
}

/**
 * The event types and the guard of a reader that reads a decider's streams as the decider folds them: its
 * `knownEventTypes` and `isEvent` (what `storedEventShapes` gives the deciders), so the reader and the command seam
 * agree on what a well-formed stored event is.
 */
export function eventsOfDecider<E extends StreamEvent>(
  shapes: DeciderEventShapes<E>,
): Pick<ProjectedEvents<E>, 'eventTypes' | 'isEvent'> {
  return {
    // storedEventShapes builds knownEventTypes from one check per type of the union E: exactly E's types.
    eventTypes: [...shapes.knownEventTypes] as E['type'][],
    isEvent: (event: StreamEvent): event is E => shapes.isEvent(event),
  };
}
