import { type KurrentDBClient } from '@kurrent/kurrentdb-client';
import { comparePositions } from '../compare-positions';
import { type Position, type SubscribeOptions, type Subscription } from '../event-store.port';
import { SubscriptionDroppedError } from '../subscription-dropped.error';
import { decodeEsdbPosition, encodeEsdbPosition } from './eventstoredb-position';
import { kurrent } from './kurrent-client';
import { isApplicationEvent, toRecordedEvent } from './to-recorded-event';

export interface EsdbCheckpoints {
  read(subscriptionId: string): Promise<Position | undefined>;
  store(subscriptionId: string, position: Position): Promise<void>;
}

/**
 * Catch-up and live delivery from one server-side filtered subscription to $all. Events are pulled one at a
 * time (async iteration applies back-pressure), so the handler never runs twice at once.
 */
export async function subscribeToEsdb(
  client: KurrentDBClient,
  checkpoints: EsdbCheckpoints,
  options: SubscribeOptions,
): Promise<Subscription> {
  const { subscriptionId, streamPrefixes, handler, onError } = options;
  const checkpoint = await checkpoints.read(subscriptionId);
  const source = client.subscribeToAll({
    fromPosition: checkpoint === undefined ? kurrent().START : decodeEsdbPosition(checkpoint),
    filter:
      streamPrefixes.length === 0
        ? kurrent().excludeSystemEvents()
        : kurrent().streamNameFilter({ prefixes: [...streamPrefixes] }),
  });
  let stopping = false;

  const run = async (): Promise<void> => {
    for await (const resolved of source) {
      const event = resolved.event;
      if (event === undefined || !isApplicationEvent(event)) continue;
      const position = encodeEsdbPosition(event.position);
      // The server starts after fromPosition; checking again costs nothing and rules out a duplicate.
      if (checkpoint !== undefined && comparePositions(position, checkpoint) <= 0) continue;
      await handler(toRecordedEvent(event));
      await checkpoints.store(subscriptionId, position);
      if (stopping) return;
    }
    if (!stopping) throw new SubscriptionDroppedError(subscriptionId);
  };

  const release = async (): Promise<void> => {
    await source.unsubscribe().catch(() => undefined);
    // A cancelled gRPC call does not always end the piped stream; destroying it ends a pending iteration.
    source.destroy();
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
