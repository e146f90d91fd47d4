import { type AppendSignal } from './append-signal';
import { type LiveSubscribeOptions, type Position, type Subscription } from './event-store.port';
import { startPollingSubscription } from './polling-subscription';
import { type StoreLifecycle } from './store-lifecycle';
import { type SyncPollingFeed } from './subscribe-polling';

/** What a live subscription needs of a store without a push API (the memory store, better-sqlite3). */
export interface SyncLiveFeed {
  readPage: SyncPollingFeed['readPage'];
  /** The position of the newest event in the log now (the log's head), where a live subscription starts. */
  head(): Position;
  signal: AppendSignal;
}

/**
 * `subscribeLive` of the stores without a push API: the polling subscription, started at the head of the log
 * instead of a stored checkpoint and storing none. It reads the log only when an append to one of its streams is
 * signalled (this process's appends at once, other processes' through the store's own poll), never on a timer.
 * Refused once the store is closed, and stopped by the store's close.
 */
export async function subscribeLivePolling(
  lifecycle: StoreLifecycle,
  feed: SyncLiveFeed,
  options: LiveSubscribeOptions,
): Promise<Subscription> {
  const head = await lifecycle.run(() => feed.head());
  const subscription = await startPollingSubscription(
    {
      readPage: (after, prefixes, limit) => lifecycle.run(() => feed.readPage(after, prefixes, limit)),
      readCheckpoint: () => Promise.resolve(head),
      storeCheckpoint: () => Promise.resolve(),
      signal: feed.signal,
    },
    {
      subscriptionId: 'live',
      streamPrefixes: options.streamPrefixes,
      handler: options.handler,
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    },
  );
  return lifecycle.track(subscription);
}
