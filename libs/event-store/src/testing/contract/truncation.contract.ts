import { canTruncateStreams, type EventStore, type StreamTruncation } from '../../event-store.port';
import { newEvent, uniqueName } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

/** The store as a truncating one: every adapter is. */
function truncating(store: EventStore): EventStore & StreamTruncation {
  if (!canTruncateStreams(store)) throw new Error('this adapter cannot truncate streams');
  return store;
}

async function fiveEvents(store: EventStore, stream: string): Promise<void> {
  await store.append(
    stream,
    [0, 1, 2, 3, 4].map((n) => newEvent('Happened', { n })),
    { expectedRevision: 'no_stream' },
  );
}

export function describeTruncationContract(context: ContractContext): void {
  describe('truncateStreamBefore', () => {
    it('hides the events below the revision from every read; the stream keeps its revision', async () => {
      const store = truncating(context.harness().store);
      const run = uniqueName('tb');
      const stream = `${run}-webhook`;
      const other = `${run}-other`;
      await fiveEvents(store, stream);
      await store.append(other, [newEvent('Kept')], { expectedRevision: 'no_stream' });

      await store.truncateStreamBefore(stream, 3);

      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([3, 4]);
      expect((await store.readStream(stream, { direction: 'backwards' })).map((e) => e.revision)).toEqual([
        4, 3,
      ]);
      expect(
        (await store.readStream(stream, { fromRevision: 1, maxCount: 1 })).map((e) => e.revision),
      ).toEqual([3]);
      expect(await store.readStreamRevision(stream)).toBe(4);
      const all = await store.readAll({ streamPrefixes: [run] });
      expect(all.map((e) => [e.streamId, e.revision])).toEqual([
        [stream, 3],
        [stream, 4],
        [other, 0],
      ]);
      expect((await store.readStream(other)).map((e) => e.revision)).toEqual([0]);
      // An append expects the revision the stream had; it goes on from there.
      const next = await store.append(stream, [newEvent('After')], { expectedRevision: 4 });
      expect(next.nextRevision).toBe(5);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([3, 4, 5]);
    });

    it('is idempotent and never moves back', async () => {
      const store = truncating(context.harness().store);
      const stream = uniqueName('tb-again');
      await fiveEvents(store, stream);
      await store.truncateStreamBefore(stream, 2);
      await store.truncateStreamBefore(stream, 2);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([2, 3, 4]);
      await store.truncateStreamBefore(stream, 1);
      await store.truncateStreamBefore(stream, 0);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([2, 3, 4]);
      await Promise.all([store.truncateStreamBefore(stream, 3), store.truncateStreamBefore(stream, 4)]);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([4]);
    });

    it('does nothing to a stream that does not exist, nor creates it', async () => {
      const store = truncating(context.harness().store);
      const stream = uniqueName('tb-none');
      await store.truncateStreamBefore(stream, 3);
      expect(await store.readStreamRevision(stream)).toBe('no_stream');
      await fiveEvents(store, stream);
      expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    });

    it('holds after a restart', async () => {
      const { store, restart } = context.harness();
      const stream = uniqueName('tb-restart');
      await fiveEvents(store, stream);
      await truncating(store).truncateStreamBefore(stream, 4);
      const reopened = restart === undefined ? store : await restart();
      expect((await reopened.readStream(stream)).map((e) => e.revision)).toEqual([4]);
      expect(await reopened.readStreamRevision(stream)).toBe(4);
    });
  });
}
