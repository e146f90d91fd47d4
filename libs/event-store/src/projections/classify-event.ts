import { type StreamEvent } from '../aggregate-stream';
import { type Position, type RecordedEvent } from '../event-store.port';
import { type Projected, type ProjectedEvents } from './projected-events';

/** One stored event a reader could not use, and why: what a quarantine keeps. */
export interface QuarantinedEvent {
  position: Position;
  streamId: string;
  revision: number;
  eventId: string;
  type: string;
  reason: string;
}

/**
 * What one stored event is to a reader: one of its typed events, a type it does not read (skipped), or an event it
 * cannot read (quarantined: an upcast that threw, or data without the shape its guard checks).
 */
export type ClassifiedEvent<E extends StreamEvent> =
  | { kind: 'event'; event: Projected<E> }
  | { kind: 'skipped'; type: string }
  | { kind: 'quarantined'; quarantined: QuarantinedEvent };

/**
 * The one step every reader of the log takes before it looks at a stored event: upcast (the reader's hook, for old
 * shapes), then is the type one it reads (else skipped), then the reader's guard (else quarantined, with its
 * position, stream, revision, type and the reason), and only then the typed event. No reader casts a stored event.
 * Pure: counting and telling are EventClassifier's.
 */
export function classifyEvent<E extends StreamEvent>(
  reads: ProjectedEvents<E>,
  recorded: RecordedEvent,
): ClassifiedEvent<E> {
  let event: StreamEvent = { type: recorded.type, data: recorded.data };
  try {
    if (reads.upcast) event = reads.upcast(event);
  } catch (error) {
    return quarantine(recorded, `upcast failed: ${messageOf(error)}`);
  }
  if (!(reads.eventTypes as readonly string[]).includes(event.type))
    return { kind: 'skipped', type: event.type };
  if (!reads.isEvent(event))
    return quarantine(recorded, `malformed ${event.type}: its data is not the shape this version reads`);
  return {
    kind: 'event',
    event: {
      ...event,
      id: recorded.id,
      streamId: recorded.streamId,
      revision: recorded.revision,
      position: recorded.position,
      recordedAt: recorded.recordedAt,
    },
  };
}

/** A quarantine record of a stored event, for `reason`. */
export function quarantinedEvent(recorded: RecordedEvent, reason: string): QuarantinedEvent {
  const { position, streamId, revision, id: eventId, type } = recorded;
  return { position, streamId, revision, eventId, type, reason };
}

function quarantine(recorded: RecordedEvent, reason: string): ClassifiedEvent<never> {
  return { kind: 'quarantined', quarantined: quarantinedEvent(recorded, reason) };
}

/** What a reader skipped and quarantined in this process. */
export interface ClassificationStats {
  /** Per event type skipped. */
  skipped: Record<string, number>;
  quarantined: number;
}

export interface EventClassifierOptions {
  /** Told once per process and event type skipped, and for every event quarantined. */
  onWarning?: (message: string, detail: Record<string, unknown>) => void;
}

/**
 * classifyEvent for one reader, with the reader's counts: a skipped type is counted and told once per type and
 * process, a quarantined event counted and told each time. `tally` is apart from `classify` for a reader that counts
 * only what it kept (ProjectionRunner: once its page committed); `read` does both.
 */
export class EventClassifier<E extends StreamEvent> {
  private readonly warnedTypes = new Set<string>();
  private readonly counts: ClassificationStats = { skipped: {}, quarantined: 0 };

  constructor(
    readonly reads: ProjectedEvents<E>,
    private readonly options: EventClassifierOptions = {},
  ) {}

  classify(recorded: RecordedEvent): ClassifiedEvent<E> {
    return classifyEvent(this.reads, recorded);
  }

  /** Counts (and tells) what a classification found: nothing for a typed event. */
  tally(classified: ClassifiedEvent<E>): void {
    if (classified.kind === 'skipped') this.skipped(classified.type);
    else if (classified.kind === 'quarantined') this.quarantined(classified.quarantined);
  }

  /** classify, then tally. */
  read(recorded: RecordedEvent): ClassifiedEvent<E> {
    const classified = this.classify(recorded);
    this.tally(classified);
    return classified;
  }

  /** Counts and tells a quarantined event (also one the reader quarantined itself, e.g. an evolve that threw). */
  quarantined(event: QuarantinedEvent): void {
    this.counts.quarantined++;
    this.options.onWarning?.(`projection ${this.reads.name} quarantined an event`, {
      projection: this.reads.name,
      position: event.position,
      streamId: event.streamId,
      revision: event.revision,
      type: event.type,
      reason: event.reason,
    });
  }

  get stats(): ClassificationStats {
    return { skipped: { ...this.counts.skipped }, quarantined: this.counts.quarantined };
  }

  private skipped(type: string): void {
    this.counts.skipped[type] = (this.counts.skipped[type] ?? 0) + 1;
    if (this.warnedTypes.has(type)) return;
    this.warnedTypes.add(type);
    this.options.onWarning?.(`projection ${this.reads.name} skips events of a type it does not read`, {
      projection: this.reads.name,
      type,
    });
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
