import { type AttemptEvent, type AttemptEventType, type AttemptPreparedData } from '@svc/domain';
import {
  type ClassificationStats,
  EventClassifier,
  type EventStore,
  projectedEvents,
  type QuarantinedEvent,
  type StreamEvent,
} from '@svc/event-store';
import { auditReads } from '../history/stored-events';

export interface EachAttemptOptions {
  /** Which attempts to visit, by what they were prepared with. */
  filter: (prepared: AttemptPreparedData) => boolean;
  /** Events read per page (default 500). */
  pageSize?: number;
  /** Attempts visited at once within a page (default 4). */
  concurrency?: number;
  /** An AttemptPrepared the walk cannot read: never visited (a finding, whatever the filter: it cannot be read). */
  onMalformed?: (event: QuarantinedEvent) => void;
}

type Prepared = Extract<AttemptEvent, { type: 'AttemptPrepared' }>;
/** What the walk reads: AttemptPrepared in full; the other attempt events only as known types (their folds read them). */
type Walked = Prepared | { type: Exclude<AttemptEventType, 'AttemptPrepared'>; data: object };

const isString = (v: unknown) => typeof v === 'string';

/**
 * The walk's declaration, through the projection seam's classification: every attempt event type the attempt
 * decider knows (another type is skipped and counted), and an AttemptPrepared only when the attempt decider's guard
 * passes and it holds what the walk and its visits read (ids, partner, time). The events after AttemptPrepared are
 * checked by each visited attempt's own fold, for the attempts the filter keeps.
 */
const walkReads = projectedEvents<Walked>({
  name: 'audit-attempts',
  streamPrefixes: auditReads.attempt.streamPrefixes,
  eventTypes: auditReads.attempt.eventTypes,
  isEvent: (event: StreamEvent): event is Walked =>
    event.type !== 'AttemptPrepared' ||
    (auditReads.attempt.isEvent(event) &&
      event.type === 'AttemptPrepared' &&
      [event.data.attemptId, event.data.intentSessionId, event.data.partnerId].every(isString) &&
      Number.isFinite(event.data.preparedAt)),
});

/**
 * Visits every attempt of the store once, in the order they were prepared, by walking the attempt streams of the
 * global log a page at a time: the next page is read only when the visits of this one are done, so memory holds one
 * page and the visits in flight, however many attempts the store has. Returns what the walk skipped (event types this
 * build does not know, per type) and quarantined (malformed AttemptPrepared, each told to `onMalformed`).
 */
export async function forEachPreparedAttempt(
  store: EventStore,
  options: EachAttemptOptions,
  visit: (prepared: AttemptPreparedData) => Promise<void>,
): Promise<ClassificationStats> {
  const classifier = new EventClassifier(walkReads);
  const pageSize = options.pageSize ?? 500;
  let after: string | undefined;
  for (;;) {
    const page = await store.readAll({
      after,
      streamPrefixes: [...walkReads.streamPrefixes],
      maxCount: pageSize,
    });
    const prepared: AttemptPreparedData[] = [];
    for (const recorded of page) {
      const read = classifier.read(recorded);
      if (read.kind === 'quarantined') options.onMalformed?.(read.quarantined);
      if (read.kind === 'event' && read.event.type === 'AttemptPrepared' && options.filter(read.event.data))
        prepared.push(read.event.data);
    }
    await inPool(prepared, options.concurrency ?? 4, visit);
    const last = page.at(-1);
    if (last === undefined) return classifier.stats;
    if (page.length < pageSize) return classifier.stats;
    after = last.position;
  }
}

async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
