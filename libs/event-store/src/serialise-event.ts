import { type NewEvent } from './event-store.port';

/** A new event as the memory and SQLite stores keep it: data and metadata as JSON text. */
export interface SerialisedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** Throws for data that is not JSON: a store serialises the whole batch before it writes any of it. */
export function serialiseEvent(event: NewEvent): SerialisedEvent {
  return {
    id: event.id,
    type: event.type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(event.metadata ?? {}),
  };
}
