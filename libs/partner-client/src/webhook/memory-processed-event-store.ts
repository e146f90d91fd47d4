import { type ProcessedEventStore } from './processed-event-store';

/** For tests and demos only: forgotten on restart, so every event would be processed again after one. */
export class MemoryProcessedEventStore implements ProcessedEventStore {
  private readonly ids = new Set<string>();

  has(eventId: string): Promise<boolean> {
    return Promise.resolve(this.ids.has(eventId));
  }

  add(eventId: string): Promise<void> {
    this.ids.add(eventId);
    return Promise.resolve();
  }
}
