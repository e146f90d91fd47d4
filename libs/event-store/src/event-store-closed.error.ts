/** The store was closed; a closed store rejects every further call instead of touching released resources. */
export class EventStoreClosedError extends Error {
  override readonly name = 'EventStoreClosedError';
  constructor() {
    super('event store is closed');
  }
}
