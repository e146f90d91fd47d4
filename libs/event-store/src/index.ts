export * from './event-store.port';
export { comparePositions } from './compare-positions';
export { EventStoreClosedError } from './event-store-closed.error';
export { InvalidPositionError } from './invalid-position.error';
export { SubscriptionDroppedError } from './subscription-dropped.error';
export { MemoryEventStore, type MemoryEventStoreOptions } from './memory/memory-event-store.adapter';
export { MemoryEventStoreState } from './memory/memory-event-store.state';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store.adapter';
export { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store.adapter';
