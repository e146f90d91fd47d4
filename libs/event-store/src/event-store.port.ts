/**
 * The event store port. Streams are the source of truth (ARCHITECTURE.md "Streams"); every feature sees
 * only this interface, and the composition root binds an adapter: memory (tests), SQLite (one host),
 * EventStoreDB (production). One contract suite (`describeEventStoreContract`) holds every adapter to it.
 */

/** Where an append expects the stream to be. A number is the revision of the stream's last event. */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface NewEvent<T extends string = string, D = Record<string, unknown>> {
  /** UUID. Deterministic where a retry could append twice: re-appending the same ids is a no-op. */
  id: string;
  type: T;
  /** JSON-serialisable (no bigint, no Date: amounts are base-10 strings, times ISO strings or epoch ms). */
  data: D;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent<T extends string = string, D = Record<string, unknown>> {
  id: string;
  type: T;
  data: D;
  metadata: Record<string, unknown>;
  streamId: string;
  /** 0-based revision of this event in its stream. */
  revision: number;
  /** Opaque, totally ordered global position across all streams (compare with `comparePositions`). */
  position: Position;
  /** ISO 8601 time the store recorded the event. */
  recordedAt: string;
}

/** Opaque global position: a string the adapter can parse back; ordered by the adapter's own rule. */
export type Position = string;

export interface StreamSettings {
  /** Events older than this are no longer returned by reads (and may be deleted). Used for nonces. */
  maxAgeSeconds?: number;
  /** Only the newest N events are kept. Used for checkpoints. */
  maxCount?: number;
}

export interface AppendOptions extends StreamSettings {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event in the stream after the append. */
  nextRevision: number;
  position: Position;
}

export interface ReadStreamOptions {
  fromRevision?: number;
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omitted: from the start. */
  after?: Position;
  /** Only streams whose id starts with one of these prefixes. */
  streamPrefixes?: string[];
  maxCount?: number;
}

/** One page of the global log, and how far the store looked to find it. */
export interface ReadAllPage {
  events: RecordedEvent[];
  /**
   * The position up to which every matching event was returned: the last event's when the page is full, else the
   * log's head when the read began (or later), even when the tail of the log held only other streams' events. The
   * next read starts after it and never scans that tail again. undefined: the log was empty (or `after` was).
   */
  scannedTo: Position | undefined;
}

export type EventHandler = (event: RecordedEvent) => Promise<void>;

export interface SubscribeOptions {
  /** Names the stored checkpoint: a restarted subscription with the same name resumes after it. */
  subscriptionId: string;
  streamPrefixes: string[];
  /**
   * Called once per event, in global order, one at a time. The checkpoint moves past an event only after
   * its handler resolved, so a crash redelivers (at-least-once) and never skips; a store may save it less often
   * than every event (the polling stores: at most once a second while live, always at a stop or a failure). A
   * handler that throws stops the subscription (reported through `onError`); nothing after that event is delivered.
   */
  handler: EventHandler;
  onError?: (error: unknown) => void;
}

export interface LiveSubscribeOptions {
  /** Only streams whose id starts with one of these prefixes (none, or an empty list: every stream). */
  streamPrefixes: string[];
  /**
   * Called once per event appended after the subscription started, in global order, one at a time. A handler that
   * throws stops the subscription (reported through `onError`); nothing after that event is delivered.
   */
  handler: EventHandler;
  /** The subscription failed (a handler threw, the store dropped it): nothing more is delivered. */
  onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Resolves once the handler is idle and no further event will be delivered. */
  stop(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /** Events of a stream (none for a missing, deleted or fully expired stream). */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * The revision of the newest event `readStream` would return now ('no_stream' when it would return none), without
   * reading any event's data: one indexed lookup. Events never change once written, so a state folded from a stream
   * read at this revision is still current while it answers the same, for a stream without maxAge or maxCount (whose
   * older events can vanish under an unchanged head). What a cached read model checks before serving (the attempt
   * status).
   */
  readStreamRevision(streamId: string): Promise<number | 'no_stream'>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** readAll, with how far the store looked: what a follower of sparse streams resumes after. */
  readAllPage(options?: ReadAllOptions): Promise<ReadAllPage>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /**
   * A live subscription that stores nothing: no name, no checkpoint, nothing of the past. It starts at the end of the
   * log as the store has it when the returned promise resolves, and delivers every matching event whose append
   * completes after that (an append racing the call may or may not be delivered; one that completed before the call
   * never is). What an in-memory fan-out follows (the gateway's live status streams): a reader that also needs the
   * past reads it after this resolved, so that nothing falls between the two. Stopped by `stop()` or the store's
   * close (neither reports through `onError`).
   */
  subscribeLive(options: LiveSubscribeOptions): Promise<Subscription>;
  /** The stored checkpoint of a subscription, if any. */
  readCheckpoint(subscriptionId: string): Promise<Position | undefined>;
  /** Reachability for /readyz. */
  ping(): Promise<void>;
  /**
   * Whether a write would succeed now, leaving nothing behind (/readyz, security review N-L7): rejects when the store
   * cannot take one (full, read-only, locked). Optional: a store without it is judged by its appends (watchWrites).
   */
  probeWrite?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Cutting the older events of a stream whose history a later event of its own summarises (a webhook delivery stream
 * once compacted: docs/webhooks.md "Retention"). Apart from EventStore so that a store that only reads (the audit's
 * wrapper) need not offer it; the memory, SQLite and EventStoreDB adapters do, and the contract suite holds them to it.
 * Never for a stream that is replayed whole (attempt streams: auditors replay them).
 */
export interface StreamTruncation {
  /**
   * The stream's events at revisions below `beforeRevision` are no longer returned by readStream and readAll, and may
   * be deleted (as with maxAge, a subscription still reading the log behind them may deliver them on EventStoreDB);
   * those at `beforeRevision` and after are untouched. The stream keeps its
   * revision: an append expects the same revision as before. Idempotent, and never moves back: a lower revision than
   * an earlier truncation changes nothing. A stream that does not exist: nothing (it is not created).
   */
  truncateStreamBefore(streamId: string, beforeRevision: number): Promise<void>;
}

/** Whether this store can truncate streams (every adapter can; a read-only wrapper may not). */
export function canTruncateStreams(store: EventStore): store is EventStore & StreamTruncation {
  return typeof (store as Partial<StreamTruncation>).truncateStreamBefore === 'function';
}

/** The append found the stream at another revision than expected. Re-read, re-decide, retry. */
export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, found ${String(actual)}`);
  }
}
