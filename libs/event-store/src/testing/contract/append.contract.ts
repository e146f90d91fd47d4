import { comparePositions } from '../../compare-positions';
import { WrongExpectedVersionError } from '../../event-store.port';
import { newEvent, rejection, uniqueName } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

export function describeAppendContract(context: ContractContext): void {
  describe('append', () => {
    it('creates a stream at revision 0 and extends it from the expected revision', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      const created = newEvent('OrderCreated', { amount: '10' });
      const first = await store.append(stream, [{ ...created, metadata: { causationId: 'c-1' } }], {
        expectedRevision: 'no_stream',
      });
      const second = await store.append(stream, [newEvent('A'), newEvent('B')], { expectedRevision: 0 });

      expect(first.nextRevision).toBe(0);
      expect(second.nextRevision).toBe(2);
      expect(comparePositions(second.position, first.position)).toBeGreaterThan(0);
      const events = await store.readStream(stream);
      expect(events.map((event) => [event.revision, event.type])).toEqual([
        [0, 'OrderCreated'],
        [1, 'A'],
        [2, 'B'],
      ]);
      expect(events[0]).toMatchObject({
        id: created.id,
        streamId: stream,
        data: { amount: '10' },
        metadata: { causationId: 'c-1' },
        position: first.position,
      });
      expect(events[1].metadata).toEqual({});
      expect(events[2].position).toBe(second.position);
      expect(new Date(events[0].recordedAt).toISOString()).toBe(events[0].recordedAt);
    });

    it("rejects 'no_stream' on an existing stream", async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      await store.append(stream, [newEvent('A')], { expectedRevision: 'no_stream' });

      const error = await rejection(store.append(stream, [newEvent('B')], { expectedRevision: 'no_stream' }));

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0 });
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('rejects a stale revision and writes nothing of the batch', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      await store.append(stream, [newEvent('A'), newEvent('B')], { expectedRevision: 'no_stream' });

      const error = await rejection(
        store.append(stream, [newEvent('C'), newEvent('D')], { expectedRevision: 0 }),
      );

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ streamId: stream, expected: 0, actual: 1 });
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B']);
    });

    it('rejects a revision on a missing stream', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');

      const error = await rejection(store.append(stream, [newEvent('A')], { expectedRevision: 0 }));

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ streamId: stream, expected: 0, actual: 'no_stream' });
      expect(await store.readStream(stream)).toEqual([]);
    });

    it('lets exactly one of two concurrent appends at the same revision through', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      await store.append(stream, [newEvent('A')], { expectedRevision: 'no_stream' });
      const left = newEvent('Left');
      const right = newEvent('Right');

      const results = await Promise.allSettled([
        store.append(stream, [left], { expectedRevision: 0 }),
        store.append(stream, [right], { expectedRevision: 0 }),
      ]);

      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const failed = results.find((result) => result.status === 'rejected');
      expect(failed?.reason).toBeInstanceOf(WrongExpectedVersionError);
      const events = await store.readStream(stream);
      expect(events.map((event) => event.revision)).toEqual([0, 1]);
      expect([left.id, right.id]).toContain(events[1].id);
    });

    it('acknowledges a retried batch (same ids, same expected revision) without writing it again', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      const batch = [newEvent('A'), newEvent('B')];
      const first = await store.append(stream, batch, { expectedRevision: 'no_stream' });

      const retried = await store.append(stream, batch, { expectedRevision: 'no_stream' });

      expect(retried).toEqual(first);
      expect((await store.readStream(stream)).map((event) => event.id)).toEqual(
        batch.map((event) => event.id),
      );
    });

    it('acknowledges a retried batch after the stream moved on', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      await store.append(stream, [newEvent('A')], { expectedRevision: 'no_stream' });
      const batch = [newEvent('B')];
      const first = await store.append(stream, batch, { expectedRevision: 0 });
      await store.append(stream, [newEvent('C')], { expectedRevision: 1 });

      const retried = await store.append(stream, batch, { expectedRevision: 0 });

      expect(retried.nextRevision).toBe(first.nextRevision);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B', 'C']);
    });

    it("acknowledges a retried 'any' batch that is the stream's tail", async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      await store.append(stream, [newEvent('A')], { expectedRevision: 'any' });
      const batch = [newEvent('B'), newEvent('C')];
      const first = await store.append(stream, batch, { expectedRevision: 'any' });

      const retried = await store.append(stream, batch, { expectedRevision: 'any' });

      expect(retried.nextRevision).toBe(first.nextRevision);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B', 'C']);
    });

    it('rejects a batch that only partly matches what was written', async () => {
      const { store } = context.harness();
      const stream = uniqueName('order-');
      const a = newEvent('A');
      await store.append(stream, [a, newEvent('B')], { expectedRevision: 'no_stream' });

      const error = await rejection(
        store.append(stream, [a, newEvent('X')], { expectedRevision: 'no_stream' }),
      );

      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B']);
    });
  });
}
