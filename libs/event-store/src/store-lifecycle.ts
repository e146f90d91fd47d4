import { EventStoreClosedError } from './event-store-closed.error';
import { type Subscription } from './event-store.port';

/**
 * What every adapter does alike around its own storage: refuse calls once closed, track the live subscriptions,
 * and on close stop them before the storage is released (a handler mid-event still finds the store open).
 */
export class StoreLifecycle {
  private readonly live = new Set<Subscription>();
  private closed = false;

  /**
   * Runs synchronous store work (the memory store, better-sqlite3) behind the async port, so a failure, a closed
   * store's too, always arrives as a rejected promise and never as an exception thrown at the call site.
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve) => {
      if (this.closed) throw new EventStoreClosedError();
      resolve(work());
    });
  }

  /** Runs asynchronous store work (EventStoreDB), refused once closed. */
  whenOpen<T>(work: () => Promise<T>): Promise<T> {
    return this.closed ? Promise.reject(new EventStoreClosedError()) : work();
  }

  /** Tracks `subscription` until close; the handle returned forgets it again when stopped. */
  track(subscription: Subscription): Subscription {
    this.live.add(subscription);
    return {
      stop: async () => {
        this.live.delete(subscription);
        await subscription.stop();
      },
    };
  }

  /** Stops every subscription, then closes and releases the storage. Closing again does nothing. */
  async close(release: () => void | Promise<void> = () => undefined): Promise<void> {
    if (this.closed) return;
    const stopping = [...this.live].map((subscription) => subscription.stop());
    this.live.clear();
    await Promise.all(stopping);
    this.closed = true;
    await release();
  }
}
