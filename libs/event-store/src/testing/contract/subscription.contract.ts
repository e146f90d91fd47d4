import { type EventHandler, type EventStore, type RecordedEvent } from '../../event-store.port';
import { newEvent, QUIET_PERIOD_MS, sleep, uniqueName, waitFor } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

function recorder(): { handled: RecordedEvent[]; handler: EventHandler } {
  const handled: RecordedEvent[] = [];
  return {
    handled,
    handler: (event) => {
      handled.push(event);
      return Promise.resolve();
    },
  };
}

async function appendOne(store: EventStore, stream: string, type: string): Promise<string> {
  const event = newEvent(type);
  await store.append(stream, [event], { expectedRevision: 'any' });
  return event.id;
}

export function describeSubscriptionContract(context: ContractContext): void {
  describe('subscribe', () => {
    it('delivers existing then live events in global order, only from its prefixes', async () => {
      const { store } = context.harness();
      const run = uniqueName('sub');
      const expected = [
        await appendOne(store, `${run}-a-1`, 'E1'),
        await appendOne(store, `${run}-a-1`, 'E2'),
      ];
      await appendOne(store, `${run}-b-1`, 'Other');
      const { handled, handler } = recorder();

      const subscription = await store.subscribe({
        subscriptionId: uniqueName('s-'),
        streamPrefixes: [`${run}-a-`],
        handler,
      });
      await waitFor(() => handled.length === 2, 'the existing events');
      expected.push(await appendOne(store, `${run}-a-2`, 'E3'));
      await appendOne(store, `${run}-b-1`, 'Other');
      expected.push(await appendOne(store, `${run}-a-1`, 'E4'));
      await waitFor(() => handled.length >= 4, 'the live events');
      await sleep(QUIET_PERIOD_MS);
      await subscription.stop();

      expect(handled.map((event) => event.id)).toEqual(expected);
    });

    it('resumes exactly after the last handled event when resubscribed with the same id', async () => {
      const { store } = context.harness();
      const run = uniqueName('sub');
      const subscriptionId = uniqueName('s-');
      const ids = [await appendOne(store, `${run}-1`, 'E1'), await appendOne(store, `${run}-2`, 'E2')];
      const first = recorder();
      const firstSubscription = await store.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: first.handler,
      });
      await waitFor(() => first.handled.length === 2, 'the first two events');
      await firstSubscription.stop();
      ids.push(await appendOne(store, `${run}-1`, 'E3'), await appendOne(store, `${run}-3`, 'E4'));

      expect(await store.readCheckpoint(subscriptionId)).toBe(first.handled[1].position);
      const second = recorder();
      const secondSubscription = await store.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: second.handler,
      });
      await waitFor(() => second.handled.length >= 2, 'the events appended while stopped');
      await sleep(QUIET_PERIOD_MS);
      await secondSubscription.stop();

      expect([...first.handled, ...second.handled].map((event) => event.id)).toEqual(ids);
      expect(await store.readCheckpoint(subscriptionId)).toBe(second.handled[1].position);
    });

    it('stops at a failing handler, reports it, and redelivers that event on resubscribe', async () => {
      const { store } = context.harness();
      const run = uniqueName('sub');
      const subscriptionId = uniqueName('s-');
      const ids = [
        await appendOne(store, run, 'E1'),
        await appendOne(store, run, 'Poison'),
        await appendOne(store, run, 'E3'),
      ];
      const handled: string[] = [];
      const errors: unknown[] = [];
      const failure = new Error('handler failed');

      const failing = await store.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: (event) => {
          if (event.type === 'Poison') return Promise.reject(failure);
          handled.push(event.id);
          return Promise.resolve();
        },
        onError: (error) => errors.push(error),
      });
      await waitFor(() => errors.length > 0, 'onError');
      await sleep(QUIET_PERIOD_MS);
      await failing.stop();

      expect(errors).toEqual([failure]);
      expect(handled).toEqual([ids[0]]);
      const retry = recorder();
      const retried = await store.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: retry.handler,
      });
      await waitFor(() => retry.handled.length >= 2, 'the redelivered events');
      await retried.stop();
      expect(retry.handled.map((event) => event.id)).toEqual(ids.slice(1));
    });

    it('stop() resolves only once the handler in flight has finished', async () => {
      const { store } = context.harness();
      const run = uniqueName('sub');
      const subscriptionId = uniqueName('s-');
      const first = await appendOne(store, run, 'E1');
      const started: string[] = [];
      let release = (): void => undefined;
      const subscription = await store.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: (event) => {
          started.push(event.id);
          return new Promise<void>((resolve) => (release = resolve));
        },
      });
      await waitFor(() => started.length === 1, 'the handler to start');

      let stopped = false;
      const stopping = subscription.stop().then(() => (stopped = true));
      await appendOne(store, run, 'E2');
      await sleep(QUIET_PERIOD_MS);
      expect(stopped).toBe(false);
      release();
      await stopping;
      await sleep(QUIET_PERIOD_MS);

      expect(started).toEqual([first]);
      const checkpoint = await store.readCheckpoint(subscriptionId);
      expect(checkpoint).toBe((await store.readStream(run))[0].position);
    });

    it('resumes after a restart of the store', async () => {
      const harness = context.harness();
      // Every adapter here provides restart; one that cannot restart has nothing to check in this case.
      if (harness.restart === undefined) return;
      const run = uniqueName('sub');
      const subscriptionId = uniqueName('s-');
      const before = await appendOne(harness.store, run, 'BeforeRestart');
      const first = recorder();
      const subscription = await harness.store.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: first.handler,
      });
      await waitFor(() => first.handled.length === 1, 'the first event');
      await subscription.stop();

      const restarted = await harness.restart();
      const after = await appendOne(restarted, run, 'AfterRestart');
      const second = recorder();
      const resumed = await restarted.subscribe({
        subscriptionId,
        streamPrefixes: [run],
        handler: second.handler,
      });
      await waitFor(() => second.handled.length >= 1, 'the event appended after the restart');
      await sleep(QUIET_PERIOD_MS);
      await resumed.stop();

      expect(first.handled.map((event) => event.id)).toEqual([before]);
      expect(second.handled.map((event) => event.id)).toEqual([after]);
      expect((await restarted.readStream(run)).map((event) => event.id)).toEqual([before, after]);
    });

    it('keeps one checkpoint per subscription id', async () => {
      const { store } = context.harness();
      const run = uniqueName('sub');
      const [left, right] = [uniqueName('s-'), uniqueName('s-')];
      await appendOne(store, `${run}-l`, 'L');
      await appendOne(store, `${run}-r`, 'R');
      const [l, r] = [recorder(), recorder()];

      expect(await store.readCheckpoint(left)).toBeUndefined();
      const subscriptions = await Promise.all([
        store.subscribe({ subscriptionId: left, streamPrefixes: [`${run}-l`], handler: l.handler }),
        store.subscribe({ subscriptionId: right, streamPrefixes: [`${run}-r`], handler: r.handler }),
      ]);
      await waitFor(() => l.handled.length === 1 && r.handled.length === 1, 'both subscriptions');
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));

      expect(await store.readCheckpoint(left)).toBe(l.handled[0].position);
      expect(await store.readCheckpoint(right)).toBe(r.handled[0].position);
    });
  });
}
