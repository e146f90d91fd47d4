import { Counter } from 'prom-client';
import { registeredMetric } from '@svc/platform';

/**
 * A stored event the command seam did not fold: of a type its decider does not know (a newer build's, during a
 * rolling deploy: skipped), or of a known type without the shape the decider folds (the stream is refused).
 */
export interface StoredEventProblem {
  kind: 'unknown_type' | 'malformed';
  /** The decider's name, or the stream id's prefix. */
  decider: string;
  type: string;
  streamId: string;
  revision: number;
}

/** Where problems are told: the composition points it at the service's logger. */
export type StoredEventProblemReporter = (problem: StoredEventProblem, message: string) => void;

/** Told by `process.emitWarning` until the composition names its logger. */
const warn: StoredEventProblemReporter = (problem, message) =>
  process.emitWarning(`${message} (${JSON.stringify(problem)})`, { code: 'STORED_EVENT_NOT_FOLDED' });

/** Distinct (decider, type, stream, revision) of malformed events told; past it they are only counted. */
const MAX_TOLD_MALFORMED = 1_000;

const notFolded = registeredMetric(
  'intent_event_store_events_not_folded_total',
  () =>
    new Counter({
      name: 'intent_event_store_events_not_folded_total',
      help: 'Stored events a decider did not fold: of an unknown type (skipped) or malformed (stream refused)',
      labelNames: ['kind', 'decider', 'type'],
    }),
);

/** The process's record of problems: counts by (kind, decider, type), and what was told already. */
const counts = new Map<string, number>();
const told = new Set<string>();
let toldMalformed = 0;
let reporter: StoredEventProblemReporter = warn;

const countKey = (kind: StoredEventProblem['kind'], decider: string, type: string) =>
  JSON.stringify([kind, decider, type]);

/**
 * Where problems are told from now on (null: back to `process.emitWarning`). Each is told once per process: an
 * unknown type once per (decider, type), whatever the stream; a malformed event once per stream and revision.
 */
export function reportStoredEventProblemsTo(next: StoredEventProblemReporter | null): void {
  reporter = next ?? warn;
}

/** How many stored events of (decider, type) this process did not fold, for this reason. */
export function storedEventProblemCount(
  kind: StoredEventProblem['kind'],
  decider: string,
  type: string,
): number {
  return counts.get(countKey(kind, decider, type)) ?? 0;
}

/** Forgets every count and what was told (tests). */
export function resetStoredEventProblems(): void {
  counts.clear();
  told.clear();
  toldMalformed = 0;
}

/** Counts the problem, and tells it unless told already. A reporter that throws does not fail the fold. */
export function noteStoredEventProblem(problem: StoredEventProblem): void {
  const { kind, decider, type, streamId, revision } = problem;
  const key = countKey(kind, decider, type);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  notFolded.inc({ kind, decider, type });
  const once = kind === 'unknown_type' ? key : JSON.stringify([key, streamId, revision]);
  if (told.has(once)) return;
  if (kind === 'malformed') {
    if (toldMalformed >= MAX_TOLD_MALFORMED) return;
    toldMalformed += 1;
  }
  told.add(once);
  const message =
    kind === 'unknown_type'
      ? `${decider} streams hold events of type ${type}, which this build does not know: skipped (told once)`
      : `${streamId}: event ${revision} (${type}) is malformed; the stream is refused`;
  try {
    reporter(problem, message);
  } catch {
    // Telling is best effort: the fold goes on (or refuses) the same.
  }
}
