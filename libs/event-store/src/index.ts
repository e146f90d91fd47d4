export * from './event-store.port';
export * from './event-store.token';
export { comparePositions } from './compare-positions';
export { decodeSequencePosition, encodeSequencePosition } from './sequence-position';
export { EventStoreClosedError } from './event-store-closed.error';
export { InvalidPositionError } from './invalid-position.error';
export { SubscriptionDroppedError } from './subscription-dropped.error';
export { MemoryEventStore, type MemoryEventStoreOptions } from './memory/memory-event-store.adapter';
export { MemoryEventStoreState } from './memory/memory-event-store.state';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store.adapter';
export { SqliteStoreUnavailableError } from './sqlite/open-sqlite-read-only';
export { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store.adapter';
export * from './event-id-from';
export * from './read-all-paged';
export { traceAppends } from './trace-appends';
export { watchWrites, type WatchWritesOptions, type WriteHealth, writeHealthOf } from './write-health';
export { type AggregateRead, aggregateStream, foldStoredEvents, type StreamEvent } from './aggregate-stream';
export { MalformedEventError } from './malformed-event.error';
export {
  reportStoredEventProblemsTo,
  resetStoredEventProblems,
  type StoredEventProblem,
  storedEventProblemCount,
  type StoredEventProblemReporter,
} from './stored-event-problems';
export {
  handleCommand,
  type CommandResult,
  type HandleCommandOptions,
  type KnownStream,
  TooManyConcurrentAppendsError,
} from './handle-command';
export { StreamHistoryExpiredError } from './stream-history-expired.error';
export * from './projections';
