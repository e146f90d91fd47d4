import { comparePositions } from '../../compare-positions';
import { type EventStore, type NewEvent } from '../../event-store.port';
import { newEvent, uniqueName } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

export function describeReadContract(context: ContractContext): void {
  describe('readStream', () => {
    it('reads forwards, backwards, from a revision and up to maxCount', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      await store.append(
        stream,
        [0, 1, 2, 3, 4].map((n) => newEvent('Counted', { n })),
        { expectedRevision: 'no_stream' },
      );
      const revisions = async (options?: Parameters<EventStore['readStream']>[1]): Promise<number[]> =>
        (await store.readStream(stream, options)).map((event) => event.revision);

      expect(await revisions()).toEqual([0, 1, 2, 3, 4]);
      expect(await revisions({ fromRevision: 2 })).toEqual([2, 3, 4]);
      expect(await revisions({ maxCount: 2 })).toEqual([0, 1]);
      expect(await revisions({ fromRevision: 1, maxCount: 2 })).toEqual([1, 2]);
      expect(await revisions({ direction: 'backwards' })).toEqual([4, 3, 2, 1, 0]);
      expect(await revisions({ direction: 'backwards', maxCount: 2 })).toEqual([4, 3]);
      expect(await revisions({ direction: 'backwards', fromRevision: 2 })).toEqual([2, 1, 0]);
      expect((await store.readStream(stream)).map((event) => event.data)).toEqual(
        [0, 1, 2, 3, 4].map((n) => ({ n })),
      );
    });

    it('returns no events for a missing stream', async () => {
      const { store } = context.harness();

      expect(await store.readStream(uniqueName('missing-'))).toEqual([]);
      expect(await store.readStream(uniqueName('missing-'), { direction: 'backwards' })).toEqual([]);
    });
  });

  describe('readStreamRevision', () => {
    it("answers the newest readable event's revision, 'no_stream' for a missing stream, and moves with appends", async () => {
      const { store } = context.harness();
      const stream = uniqueName('head-');

      expect(await store.readStreamRevision(stream)).toBe('no_stream');
      const first = await store.append(stream, [newEvent('Counted', { n: 0 })], {
        expectedRevision: 'no_stream',
      });
      expect(await store.readStreamRevision(stream)).toBe(first.nextRevision);
      const next = await store.append(
        stream,
        [1, 2].map((n) => newEvent('Counted', { n })),
        { expectedRevision: first.nextRevision },
      );
      expect(next.nextRevision).toBe(2);
      expect(await store.readStreamRevision(stream)).toBe(2);
      expect(await store.readStreamRevision(stream)).toBe((await store.readStream(stream)).at(-1)?.revision);
      expect(await store.readStreamRevision(uniqueName('head-other-'))).toBe('no_stream');
    });

    it('sees every one of many concurrent appends to one stream: the head only moves forwards, to the last', async () => {
      const { store } = context.harness();
      const stream = uniqueName('head-race-');
      await store.append(stream, [newEvent('Counted', { n: 0 })], { expectedRevision: 'no_stream' });
      const seen: (number | 'no_stream')[] = [];
      await Promise.all(
        Array.from({ length: 10 }, async (_, n) => {
          await store.append(stream, [newEvent('Counted', { n: n + 1 })], { expectedRevision: 'any' });
          seen.push(await store.readStreamRevision(stream));
        }),
      );

      expect(seen.every((revision) => typeof revision === 'number' && revision >= 1 && revision <= 10)).toBe(
        true,
      );
      expect(await store.readStreamRevision(stream)).toBe(10);
    });
  });

  describe('readAll', () => {
    /** Appends to three streams of one run, interleaved; returns the run prefix and the ids in append order. */
    async function interleaved(
      store: EventStore,
    ): Promise<{ run: string; ids: string[]; streams: string[] }> {
      const run = uniqueName('all');
      const [a1, b1, a2] = [`${run}-a-1`, `${run}-b-1`, `${run}-a-2`];
      const appends: [string, NewEvent][] = [
        [a1, newEvent('A1First')],
        [b1, newEvent('B1First')],
        [a1, newEvent('A1Second')],
        [a2, newEvent('A2First')],
        [b1, newEvent('B1Second')],
      ];
      for (const [stream, event] of appends) await store.append(stream, [event], { expectedRevision: 'any' });
      return { run, ids: appends.map(([, event]) => event.id), streams: appends.map(([stream]) => stream) };
    }

    it('returns events of all streams in global append order with increasing positions', async () => {
      const { store } = context.harness();
      const { run, ids, streams } = await interleaved(store);

      const all = await store.readAll({ streamPrefixes: [run] });

      expect(all.map((event) => event.id)).toEqual(ids);
      expect(all.map((event) => event.streamId)).toEqual(streams);
      for (let i = 1; i < all.length; i++)
        expect(comparePositions(all[i].position, all[i - 1].position)).toBe(1);
    });

    it('starts strictly after `after` and stops at maxCount', async () => {
      const { store } = context.harness();
      const { run, ids } = await interleaved(store);
      const all = await store.readAll({ streamPrefixes: [run] });

      expect(
        (await store.readAll({ streamPrefixes: [run], after: all[1].position })).map((e) => e.id),
      ).toEqual(ids.slice(2));
      expect((await store.readAll({ streamPrefixes: [run], maxCount: 2 })).map((e) => e.id)).toEqual(
        ids.slice(0, 2),
      );
      expect(
        (await store.readAll({ streamPrefixes: [run], after: all[0].position, maxCount: 2 })).map(
          (e) => e.id,
        ),
      ).toEqual(ids.slice(1, 3));
      expect(await store.readAll({ streamPrefixes: [run], after: all[4].position })).toEqual([]);
    });

    it('returns only streams matching one of the prefixes', async () => {
      const { store } = context.harness();
      const { run, ids } = await interleaved(store);

      const onlyA = await store.readAll({ streamPrefixes: [`${run}-a-`] });
      const a1AndB = await store.readAll({ streamPrefixes: [`${run}-a-1`, `${run}-b-`] });

      expect(onlyA.map((event) => event.id)).toEqual([ids[0], ids[2], ids[3]]);
      expect(a1AndB.map((event) => event.id)).toEqual([ids[0], ids[1], ids[2], ids[4]]);
    });

    it('readAllPage says how far it looked: past a tail of other streams, so the next read does not scan it again', async () => {
      const { store } = context.harness();
      const { run, ids } = await interleaved(store);
      const others = uniqueName('other-');
      for (let i = 0; i < 3; i++)
        await store.append(`${others}-${i}`, [newEvent('Elsewhere', { i })], {
          expectedRevision: 'no_stream',
        });
      const tail = (await store.readAll({ streamPrefixes: [others] })).at(-1)!.position;

      const page = await store.readAllPage({ streamPrefixes: [`${run}-a-`] });
      expect(page.events.map((e) => e.id)).toEqual([ids[0], ids[2], ids[3]]);
      // Everything of the prefix up to the tail was returned: the scan reached at least the last other event.
      expect(comparePositions(page.scannedTo!, tail)).toBeGreaterThanOrEqual(0);
      expect(await store.readAllPage({ streamPrefixes: [`${run}-a-`], after: page.scannedTo })).toEqual({
        events: [],
        scannedTo: page.scannedTo,
      });

      const full = await store.readAllPage({ streamPrefixes: [run], maxCount: 2 });
      expect(full.events.map((e) => e.id)).toEqual(ids.slice(0, 2));
      expect(full.scannedTo).toBe(full.events[1].position);
    });
  });
}
