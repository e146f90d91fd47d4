import { type EventHandler, type RecordedEvent } from '../../event-store.port';
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

/**
 * `subscribeLive`: a subscription that stores nothing and starts at the end of the log. What the gateway's live
 * status fan-out stands on: nothing of the past, everything appended after it started, and (for the stores that
 * poll) no read of the log while nothing is appended to its streams.
 */
export function describeLiveSubscriptionContract(context: ContractContext): void {
  describe('subscribeLive', () => {
    it('starts at the end of the log: only what is appended after it, in global order, only from its prefixes', async () => {
      const { store } = context.harness();
      const run = uniqueName('live');
      for (let n = 0; n < 5; n++)
        await store.append(`${run}-a-${n}`, [newEvent('Before')], { expectedRevision: 'any' });
      const { handled, handler } = recorder();
      const subscription = await store.subscribeLive({ streamPrefixes: [`${run}-a-`], handler });

      const expected: string[] = [];
      for (let n = 0; n < 20; n++) {
        const event = newEvent('After', { n });
        await store.append(`${run}-${n % 3 === 0 ? 'b' : 'a'}-${n % 4}`, [event], {
          expectedRevision: 'any',
        });
        if (n % 3 !== 0) expected.push(event.id);
      }
      await waitFor(() => handled.length >= expected.length, 'the live events');
      await sleep(QUIET_PERIOD_MS);
      await subscription.stop();

      expect(handled.map((event) => event.id)).toEqual(expected);
      expect(handled.every((event) => event.streamId.startsWith(`${run}-a-`))).toBe(true);
    });

    it('misses nothing for a reader that reads the stream after it resolved, with appends racing the start', async () => {
      const { store } = context.harness();
      const run = uniqueName('live');
      const stream = `${run}-a-1`;
      const appended: string[] = [];
      let appending = true;
      const appender = (async () => {
        while (appending) {
          const event = newEvent('Racing');
          await store.append(stream, [event], { expectedRevision: 'any' });
          appended.push(event.id);
          await new Promise((resolve) => setImmediate(resolve)); // a store that answers at once never yields
        }
      })();
      await waitFor(() => appended.length >= 5, 'appends under way');
      const { handled, handler } = recorder();
      const subscription = await store.subscribeLive({ streamPrefixes: [`${run}-a-`], handler });
      const read = await store.readStream(stream);
      await waitFor(() => appended.length >= read.length + 5, 'appends after the read');
      appending = false;
      await appender;
      await waitFor(() => handled.at(-1)?.id === appended.at(-1), 'the last append');
      await subscription.stop();

      const seen = new Set([...read.map((event) => event.id), ...handled.map((event) => event.id)]);
      expect(appended.filter((id) => !seen.has(id))).toEqual([]);
      const revisions = handled.map((event) => event.revision);
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      expect(new Set(revisions).size).toBe(revisions.length);
    });

    it('delivers nothing after stop, and several at once each get every event', async () => {
      const { store } = context.harness();
      const run = uniqueName('live');
      const first = recorder();
      const second = recorder();
      const one = await store.subscribeLive({ streamPrefixes: [run], handler: first.handler });
      const two = await store.subscribeLive({ streamPrefixes: [run], handler: second.handler });
      const before = newEvent('E1');
      await store.append(`${run}-1`, [before], { expectedRevision: 'any' });
      await waitFor(() => first.handled.length === 1 && second.handled.length === 1, 'the first event');
      await one.stop();
      const after = newEvent('E2');
      await store.append(`${run}-1`, [after], { expectedRevision: 'any' });
      await waitFor(() => second.handled.length === 2, 'the second event');
      await sleep(QUIET_PERIOD_MS);
      await two.stop();

      expect(first.handled.map((event) => event.id)).toEqual([before.id]);
      expect(second.handled.map((event) => event.id)).toEqual([before.id, after.id]);
    });

    it('stops at a failing handler and reports it; nothing after that event is delivered', async () => {
      const { store } = context.harness();
      const run = uniqueName('live');
      const handled: string[] = [];
      const errors: unknown[] = [];
      const subscription = await store.subscribeLive({
        streamPrefixes: [run],
        handler: (event) => {
          handled.push(event.id);
          return event.type === 'Poison' ? Promise.reject(new Error('handler failed')) : Promise.resolve();
        },
        onError: (error) => errors.push(error),
      });
      const ok = newEvent('Fine');
      const poison = newEvent('Poison');
      await store.append(`${run}-1`, [ok, poison], { expectedRevision: 'any' });
      await waitFor(() => errors.length === 1, 'the failure');
      await store.append(`${run}-1`, [newEvent('Later')], { expectedRevision: 'any' });
      await sleep(QUIET_PERIOD_MS);
      await subscription.stop();

      expect(handled).toEqual([ok.id, poison.id]);
      expect((errors[0] as Error).message).toBe('handler failed');
    });

    it('is stopped by the store closing, without an error; refused once the store is closed', async () => {
      const { store } = context.harness();
      const run = uniqueName('live');
      const errors: unknown[] = [];
      const { handled, handler } = recorder();
      const subscription = await store.subscribeLive({
        streamPrefixes: [run],
        handler,
        onError: (error) => errors.push(error),
      });
      await store.close();
      await subscription.stop();

      await expect(store.subscribeLive({ streamPrefixes: [run], handler })).rejects.toThrow();
      expect([handled, errors]).toEqual([[], []]);
    });

    it('reads the log only when its streams are appended to, never while quiet (stores that poll)', async () => {
      const { store, subscriptionReads: reads } = context.harness();
      if (reads === undefined) return;
      const run = uniqueName('live');
      const { handled, handler } = recorder();
      const subscription = await store.subscribeLive({ streamPrefixes: [`${run}-attempt-`], handler });
      await sleep(QUIET_PERIOD_MS); // the first read, from the head, is behind it
      const quiet = reads();
      await sleep(3 * QUIET_PERIOD_MS);
      for (let n = 0; n < 200; n++) {
        await store.append(`${run}-nonce-${n}`, [newEvent('NonceUsed')], { expectedRevision: 'no_stream' });
        if (n % 50 === 49) await sleep(1);
      }
      await sleep(QUIET_PERIOD_MS);
      const unrelated = reads();
      const followed = newEvent('AttemptWalletSubmitted');
      await store.append(`${run}-attempt-1`, [followed], { expectedRevision: 'any' });
      await waitFor(() => handled.length === 1, 'the followed event');
      await sleep(QUIET_PERIOD_MS);
      await subscription.stop();

      expect(unrelated - quiet).toBe(0);
      expect(reads() - unrelated).toBe(1);
      expect(handled.map((event) => event.id)).toEqual([followed.id]);
    });
  });
}
