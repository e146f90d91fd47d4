import { type KurrentDBClient } from '@kurrent/kurrentdb-client';
import { type LiveSubscribeOptions, type Subscription } from '../event-store.port';
import { SubscriptionDroppedError } from '../subscription-dropped.error';
import { kurrent } from './kurrent-client';
import { isApplicationEvent, toRecordedEvent } from './to-recorded-event';

/**
 * A live subscription: one server-side filtered subscription to $all from END, storing no checkpoint. It resolves
 * once the server confirmed the subscription (from then on every commit comes after its start), and events are
 * pulled one at a time (async iteration applies back-pressure), so the handler never runs twice at once.
 */
export async function subscribeLiveToEsdb(
  client: KurrentDBClient,
  options: LiveSubscribeOptions,
): Promise<Subscription> {
  const { streamPrefixes, handler, onError } = options;
  const { END, excludeSystemEvents, streamNameFilter } = kurrent();
  const source = client.subscribeToAll({
    fromPosition: END,
    filter:
      streamPrefixes.length === 0
        ? excludeSystemEvents()
        : streamNameFilter({ prefixes: [...streamPrefixes] }),
  });
  let stopping = false;

  const release = async (): Promise<void> => {
    await source.unsubscribe().catch(() => undefined);
    // A cancelled gRPC call does not always end the piped stream; destroying it ends a pending iteration.
    source.destroy();
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const confirmed = (): void => {
        source.off('error', failed);
        resolve();
      };
      const failed = (error: Error): void => {
        source.off('confirmation', confirmed);
        reject(error);
      };
      source.once('confirmation', confirmed);
      source.once('error', failed);
    });
  } catch (error) {
    await release();
    throw error;
  }

  const run = async (): Promise<void> => {
    for await (const resolved of source) {
      const event = resolved.event;
      if (event === undefined || !isApplicationEvent(event)) continue;
      await handler(toRecordedEvent(event));
      if (stopping) return;
    }
    if (!stopping) throw new SubscriptionDroppedError('live');
  };

  const done = run()
    .catch((error: unknown) => {
      if (!stopping) onError?.(error);
    })
    .finally(release);

  return {
    async stop() {
      stopping = true;
      await release();
      await done;
    },
  };
}
