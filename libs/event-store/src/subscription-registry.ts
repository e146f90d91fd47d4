import { type Subscription } from './event-store.port';

/** The live subscriptions of one store instance, so `close()` can stop them all. */
export class SubscriptionRegistry {
  private readonly live = new Set<Subscription>();

  /** Tracks `subscription`; the handle returned forgets it again when stopped. */
  track(subscription: Subscription): Subscription {
    this.live.add(subscription);
    return {
      stop: async () => {
        this.live.delete(subscription);
        await subscription.stop();
      },
    };
  }

  async stopAll(): Promise<void> {
    const stopping = [...this.live].map((subscription) => subscription.stop());
    this.live.clear();
    await Promise.all(stopping);
  }
}
