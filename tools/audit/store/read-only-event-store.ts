import {
  type AppendResult,
  type EventStore,
  type LiveSubscribeOptions,
  type Position,
  type ReadAllOptions,
  type ReadAllPage,
  type ReadStreamOptions,
  type RecordedEvent,
  type Subscription,
} from '@svc/event-store';

/** Something asked the audit's store to write: the audit never does, whatever the store would allow. */
export class StoreWriteRefusedError extends Error {
  override readonly name = 'StoreWriteRefusedError' as const;
}

/**
 * The store as the audit sees it: reads pass through; append and subscribe (which stores checkpoints) are refused
 * before they reach the adapter. A second guard beside the store's own read-only open where it has one (SQLite), the
 * only one where it has none (EventStoreDB connections are read-write as the credentials allow).
 */
export class ReadOnlyEventStore implements EventStore {
  constructor(private readonly inner: EventStore) {}

  append(streamId: string): Promise<AppendResult> {
    return Promise.reject(new StoreWriteRefusedError(`the audit never writes (append to ${streamId})`));
  }

  subscribe(): Promise<Subscription> {
    return Promise.reject(
      new StoreWriteRefusedError('the audit never subscribes (a subscription writes checkpoints)'),
    );
  }

  /** A live subscription stores nothing, so it passes through. */
  subscribeLive(options: LiveSubscribeOptions): Promise<Subscription> {
    return this.inner.subscribeLive(options);
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readStreamRevision(streamId: string): Promise<number | 'no_stream'> {
    return this.inner.readStreamRevision(streamId);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  readAllPage(options?: ReadAllOptions): Promise<ReadAllPage> {
    return this.inner.readAllPage(options);
  }

  readCheckpoint(subscriptionId: string): Promise<Position | undefined> {
    return this.inner.readCheckpoint(subscriptionId);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
