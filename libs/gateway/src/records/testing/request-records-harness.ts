import { type RequestRecords } from '../request-records.port';

/** One implementation of the records under test, created fresh for every contract case. */
export interface RequestRecordsHarness {
  /** Records over the same data, one per connection (one where the store has no connections of its own). */
  connections(): RequestRecords[];
  /** The records' time, epoch ms. */
  now(): number;
  advanceClock(ms: number): void;
  /**
   * false where the store expires records on a clock advanceClock does not move (EventStoreDB's, the server's): the
   * cases skip the steps that need a record to have expired. Default true.
   */
  expiresWithClock?: boolean;
  /** Closes every connection and opens them again over the same data, like a process restart. */
  restart(): Promise<void>;
  /** Releases everything, whichever connections are current. */
  cleanup(): Promise<void>;
}

export type RequestRecordsHarnessFactory = (options: {
  idempotencyRetentionSeconds: number;
}) => Promise<RequestRecordsHarness>;

/** What each group of contract cases sees: the harness of the case that is running. */
export interface RequestRecordsContext {
  harness(): RequestRecordsHarness;
}

/** The retention every harness is opened with, in the contract cases. */
export const CONTRACT_IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;
