import { type Decider } from '@svc/contract';
import {
  type AttemptEvent,
  attemptEventShapes,
  type IdempotencyEvent,
  idempotencyEventShapes,
  type IntentSessionEvent,
  intentSessionEventShapes,
  type TransactionClaimEvent,
  transactionClaimEventShapes,
  type WebhookStreamEvent,
  webhookStreamEventShapes,
} from '@svc/domain';
import {
  type ClassifiedEvent,
  classifyEvent,
  type DeciderEventShapes,
  eventsOfDecider,
  foldStoredEvents,
  MalformedEventError,
  type Projected,
  type ProjectedEvents,
  type QuarantinedEvent,
  quarantinedEvent,
  type RecordedEvent,
  type StreamEvent,
} from '@svc/event-store';

/**
 * How the audit reads stored events: the projection seam's classification (classifyEvent: type, then guard) with each
 * stream's own decider guards, and the command seam's fold (foldStoredEvents), so the audit reads every event as the
 * service does. A type this build does not know is skipped (counted); an event without the shape its decider folds
 * is malformed: a finding with its position, never a crash and never folded into a state.
 */
const reads = <E extends StreamEvent>(kind: string, shapes: DeciderEventShapes<E>): ProjectedEvents<E> => ({
  name: `audit-${kind}`,
  streamPrefixes: [`${kind}-`],
  ...eventsOfDecider(shapes),
});

/** The streams the audit reads, by their id's first word, each with its decider's guards. */
export const auditReads = {
  attempt: reads<AttemptEvent>('attempt', attemptEventShapes),
  intent: reads<IntentSessionEvent>('intent', intentSessionEventShapes),
  webhook: reads<WebhookStreamEvent>('webhook', webhookStreamEventShapes),
  txclaim: reads<TransactionClaimEvent>('txclaim', transactionClaimEventShapes),
  idempotency: reads<IdempotencyEvent>('idempotency', idempotencyEventShapes),
};

/** A stored event the audit read as its decider's, typed by its stream. */
export type AuditedEvent =
  | { stream: 'attempt'; event: Projected<AttemptEvent> }
  | { stream: 'intent'; event: Projected<IntentSessionEvent> }
  | { stream: 'webhook'; event: Projected<WebhookStreamEvent> }
  | { stream: 'txclaim'; event: Projected<TransactionClaimEvent> }
  | { stream: 'idempotency'; event: Projected<IdempotencyEvent> };

/** What a stored event is to the audit; `other`: a stream the audit has no decider for. */
export type StoredEventRead =
  | { kind: 'event'; audited: AuditedEvent }
  | { kind: 'skipped'; type: string }
  | { kind: 'quarantined'; quarantined: QuarantinedEvent }
  | { kind: 'other' };

/** One stored event, classified with the guards of its stream's decider. */
export function readStoredEvent(recorded: RecordedEvent): StoredEventRead {
  switch (recorded.streamId.slice(0, recorded.streamId.indexOf('-'))) {
    case 'attempt':
      return typed(classifyEvent(auditReads.attempt, recorded), (event) => ({ stream: 'attempt', event }));
    case 'intent':
      return typed(classifyEvent(auditReads.intent, recorded), (event) => ({ stream: 'intent', event }));
    case 'webhook':
      return typed(classifyEvent(auditReads.webhook, recorded), (event) => ({ stream: 'webhook', event }));
    case 'txclaim':
      return typed(classifyEvent(auditReads.txclaim, recorded), (event) => ({ stream: 'txclaim', event }));
    case 'idempotency':
      return typed(classifyEvent(auditReads.idempotency, recorded), (event) => ({
        stream: 'idempotency',
        event,
      }));
    default:
      return { kind: 'other' };
  }
}

function typed<E extends StreamEvent>(
  classified: ClassifiedEvent<E>,
  audited: (event: Projected<E>) => AuditedEvent,
): StoredEventRead {
  return classified.kind === 'event' ? { kind: 'event', audited: audited(classified.event) } : classified;
}

/** What the audit could not read among the events it read: the malformed ones (findings) and the types skipped. */
export interface StoredEventsCheck {
  malformed: QuarantinedEvent[];
  /** Per event type this build does not know. */
  skipped: Record<string, number>;
}

export const noStoredEventProblems = (): StoredEventsCheck => ({ malformed: [], skipped: {} });

/** Classifies every event read; `more` adds malformed events found elsewhere (each event once). */
export function checkStoredEvents(
  events: readonly RecordedEvent[],
  more: readonly QuarantinedEvent[] = [],
): StoredEventsCheck {
  const check = noStoredEventProblems();
  for (const recorded of events) {
    const read = readStoredEvent(recorded);
    if (read.kind === 'skipped') check.skipped[read.type] = (check.skipped[read.type] ?? 0) + 1;
    if (read.kind === 'quarantined') check.malformed.push(read.quarantined);
  }
  for (const event of more)
    if (!check.malformed.some((m) => sameEvent(m, event))) check.malformed.push(event);
  return check;
}

export const sameEvent = (a: QuarantinedEvent, b: QuarantinedEvent) =>
  a.streamId === b.streamId && a.revision === b.revision;

/** One stream folded as the service folds it: its state, or the event that makes the service refuse the stream. */
export type FoldedStream<S> = { state: S; refused: null } | { state: null; refused: QuarantinedEvent };

/**
 * Folds one stream's events with its decider through the command seam's own fold (foldStoredEvents): a type the
 * decider does not know is skipped, a malformed event refuses the fold as it refuses the service's reads of that
 * stream, and is returned (with its position) instead of thrown.
 */
export function foldStream<S, C, E extends StreamEvent>(
  decider: Decider<S, C, E>,
  events: readonly RecordedEvent[],
): FoldedStream<S> {
  try {
    return { state: foldStoredEvents(decider, decider.initialState, events), refused: null };
  } catch (error) {
    if (!(error instanceof MalformedEventError)) throw error;
    const at = events.find((e) => e.streamId === error.streamId && e.revision === error.revision);
    if (at === undefined) throw error;
    return {
      state: null,
      refused: quarantinedEvent(
        at,
        `the ${error.decider} decider does not fold it: the service refuses the stream`,
      ),
    };
  }
}

/** A malformed event on one line: where it is and why. */
export function formatMalformed(event: QuarantinedEvent): string {
  return `${event.streamId} revision ${event.revision} (${event.type}) at position ${event.position}: ${event.reason}`;
}
