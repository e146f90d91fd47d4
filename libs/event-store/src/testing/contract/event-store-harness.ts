import { type EventStore } from '../../event-store.port';

/** One adapter under test, created fresh for every contract case. */
export interface EventStoreHarness {
  store: EventStore;
  /** Moves the store's clock forward, so expiry cases need not sleep. Absent: the case sleeps. */
  advanceClock?: (ms: number) => void;
  /** Closes the current store and opens a new one over the same data, like a process restart. */
  restart?: () => Promise<EventStore>;
  /**
   * How many times the current store's subscriptions read the log so far (stores that poll: memory, SQLite).
   * Absent for a store whose server pushes (EventStoreDB): the wake-up cases have nothing to count there.
   */
  subscriptionReads?: () => number;
  /** Releases everything, whichever store instance is current. */
  cleanup: () => Promise<void>;
}

export type EventStoreHarnessFactory = () => Promise<EventStoreHarness>;

/** What each group of contract cases sees: the harness of the case that is running. */
export interface ContractContext {
  harness(): EventStoreHarness;
}
