import { type EventStore, type RecordedEvent } from '../../event-store.port';
import { newEvent, QUIET_PERIOD_MS, sleep, uniqueName, waitFor } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

/** A subscription on `prefix` that records what it handles, once it has read the (empty) log. */
async function caughtUp(
  store: EventStore,
  prefix: string,
  reads: () => number,
): Promise<{ handled: RecordedEvent[]; stop: () => Promise<void> }> {
  const handled: RecordedEvent[] = [];
  const before = reads();
  const subscription = await store.subscribe({
    subscriptionId: uniqueName('s-'),
    streamPrefixes: [prefix],
    handler: (event) => {
      handled.push(event);
      return Promise.resolve();
    },
  });
  await waitFor(() => reads() > before, 'the first read');
  await sleep(QUIET_PERIOD_MS);
  return { handled, stop: () => subscription.stop() };
}

/**
 * What wakes a subscription of a store that polls (memory, SQLite): appends to the streams it follows, and no
 * others; and a burst of them costs one read, not one per append. A store whose server pushes has nothing to count.
 */
export function describeSubscriptionWakeUpContract(context: ContractContext): void {
  describe('subscribe: wake-ups', () => {
    it('is not woken by appends to streams it does not follow', async () => {
      const { store, subscriptionReads: reads } = context.harness();
      if (reads === undefined) return;
      const run = uniqueName('wake');
      const { handled, stop } = await caughtUp(store, `${run}-attempt-`, reads);
      const before = reads();

      for (let n = 0; n < 1000; n++) {
        await store.append(`${run}-nonce-${n}`, [newEvent('NonceUsed')], { expectedRevision: 'no_stream' });
        // Separate turns of the event loop: coalescing alone must not be what keeps the count at zero.
        if (n % 50 === 49) await sleep(1);
      }
      await sleep(QUIET_PERIOD_MS);
      const afterNonces = reads();
      const followed = newEvent('AttemptWalletSubmitted');
      await store.append(`${run}-attempt-1`, [followed], { expectedRevision: 'any' });
      await waitFor(() => handled.length === 1, 'the followed event');
      await stop();

      expect(afterNonces - before).toBe(0);
      expect(handled.map((event) => event.id)).toEqual([followed.id]);
    });

    it('reads a burst of appends to its streams in far fewer reads than appends, all in order', async () => {
      const { store, subscriptionReads: reads } = context.harness();
      if (reads === undefined) return;
      const run = uniqueName('wake');
      const { handled, stop } = await caughtUp(store, `${run}-attempt-`, reads);
      const before = reads();

      const ids: string[] = [];
      for (let n = 0; n < 100; n++) {
        const event = newEvent('AttemptProviderPending', { n });
        ids.push(event.id);
        await store.append(`${run}-attempt-${n % 7}`, [event], { expectedRevision: 'any' });
      }
      await waitFor(() => handled.length >= 100, 'the burst');
      await sleep(QUIET_PERIOD_MS);
      await stop();

      expect(handled.map((event) => event.id)).toEqual(ids);
      expect(reads() - before).toBeLessThanOrEqual(5);
    });

    it('reads again for appends made while its handler runs, once for all of them', async () => {
      const { store, subscriptionReads: reads } = context.harness();
      if (reads === undefined) return;
      const run = uniqueName('wake');
      const handled: string[] = [];
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const subscription = await store.subscribe({
        subscriptionId: uniqueName('s-'),
        streamPrefixes: [`${run}-attempt-`],
        handler: async (event) => {
          if (handled.length === 0) await held;
          handled.push(event.id);
        },
      });
      const first = newEvent('AttemptWalletSubmitted');
      await store.append(`${run}-attempt-1`, [first], { expectedRevision: 'any' });
      await sleep(QUIET_PERIOD_MS); // the handler holds the first event
      const before = reads();
      const rest: string[] = [];
      for (let n = 0; n < 50; n++) {
        const event = newEvent('AttemptProviderPending', { n });
        rest.push(event.id);
        await store.append(`${run}-attempt-1`, [event], { expectedRevision: 'any' });
        await sleep(1); // appends in separate turns, all while the handler is busy
      }
      release();
      await waitFor(() => handled.length === 51, 'every event');
      await sleep(QUIET_PERIOD_MS);
      await subscription.stop();

      expect(handled).toEqual([first.id, ...rest]);
      expect(reads() - before).toBeLessThanOrEqual(2);
    });
  });
}
