import { EventStoreClosedError } from '../../event-store-closed.error';
import { newEvent, QUIET_PERIOD_MS, rejection, sleep, uniqueName, waitFor } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

export function describeLifecycleContract(context: ContractContext): void {
  describe('lifecycle', () => {
    it('answers ping while open', async () => {
      await expect(context.harness().store.ping()).resolves.toBeUndefined();
    });

    it('stops its subscriptions on close and rejects every later call', async () => {
      const { store } = context.harness();
      const run = uniqueName('life');
      const handled: string[] = [];
      const errors: unknown[] = [];
      await store.append(run, [newEvent('Before')], { expectedRevision: 'no_stream' });
      await store.subscribe({
        subscriptionId: uniqueName('s-'),
        streamPrefixes: [run],
        handler: (event) => {
          handled.push(event.type);
          return Promise.resolve();
        },
        onError: (error) => errors.push(error),
      });
      await waitFor(() => handled.length === 1, 'the subscription');

      await store.close();
      await sleep(QUIET_PERIOD_MS);

      expect(handled).toEqual(['Before']);
      expect(errors).toEqual([]);
      const calls: Promise<unknown>[] = [
        store.append(run, [newEvent('After')], { expectedRevision: 'any' }),
        store.readStream(run),
        store.readAll({ streamPrefixes: [run] }),
        store.subscribe({
          subscriptionId: uniqueName('s-'),
          streamPrefixes: [run],
          handler: () => Promise.resolve(),
        }),
        store.readCheckpoint('any'),
        store.ping(),
      ];
      for (const call of calls) expect(await rejection(call)).toBeInstanceOf(EventStoreClosedError);
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
}
