/**
 * Remembers which webhook events were processed, by eventId (receiver rule 4). `add` must be durable when it
 * resolves: the receiver acknowledges with a 2xx right after it, and the sender never redelivers an acknowledged
 * event. Behind several receiver processes use a shared database with a unique key on eventId.
 */
export interface ProcessedEventStore {
  has(eventId: string): Promise<boolean>;
  add(eventId: string): Promise<void>;
}
