import { type AppendSignal } from './append-signal';
import {
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './event-store.port';
import { startPollingSubscription } from './polling-subscription';
import { type StoreLifecycle } from './store-lifecycle';

/** A PollingFeed answered synchronously, as the memory store and better-sqlite3 answer. */
export interface SyncPollingFeed {
  readPage(
    after: Position | undefined,
    prefixes: readonly string[],
    limit: number,
  ): { events: RecordedEvent[]; scannedTo: Position | undefined };
  readCheckpoint(subscriptionId: string): Position | undefined;
  storeCheckpoint(subscriptionId: string, position: Position): void;
  signal: AppendSignal;
}

/**
 * `subscribe` of the stores without a push API: refused once the store is closed, every read and checkpoint run
 * as the store's own work (so it fails like any call once the store closes), and stopped by the store's close.
 */
export async function subscribePolling(
  lifecycle: StoreLifecycle,
  feed: SyncPollingFeed,
  options: SubscribeOptions,
): Promise<Subscription> {
  await lifecycle.run(() => undefined);
  const subscription = await startPollingSubscription(
    {
      readPage: (after, prefixes, limit) => lifecycle.run(() => feed.readPage(after, prefixes, limit)),
      readCheckpoint: (id) => lifecycle.run(() => feed.readCheckpoint(id)),
      storeCheckpoint: (id, position) => lifecycle.run(() => feed.storeCheckpoint(id, position)),
      signal: feed.signal,
    },
    options,
  );
  return lifecycle.track(subscription);
}
