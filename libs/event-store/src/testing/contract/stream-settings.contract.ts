import { WrongExpectedVersionError } from '../../event-store.port';
import { newEvent, rejection, sleep, uniqueName } from './contract-helpers';
import { type ContractContext } from './event-store-harness';

export function describeStreamSettingsContract(context: ContractContext): void {
  describe('stream settings', () => {
    it("hides events past maxAge from reads, yet the stream keeps its revision for 'no_stream'", async () => {
      const { store, advanceClock } = context.harness();
      const run = uniqueName('ttl');
      const nonce = `${run}-nonce-1`;
      // With a controllable clock the case jumps past a long maxAge; otherwise it waits out a short one.
      const maxAgeSeconds = advanceClock === undefined ? 1 : 60;
      await store.append(nonce, [newEvent('NonceUsed')], { expectedRevision: 'no_stream', maxAgeSeconds });
      const kept = newEvent('Kept');
      await store.append(`${run}-other-1`, [kept], { expectedRevision: 'no_stream' });
      expect(await store.readStream(nonce)).toHaveLength(1);

      if (advanceClock === undefined) await sleep(2500);
      else advanceClock(61_000);

      expect(await store.readStream(nonce)).toEqual([]);
      expect(await store.readStream(nonce, { direction: 'backwards' })).toEqual([]);
      expect(await store.readStreamRevision(nonce)).toBe('no_stream');
      expect((await store.readAll({ streamPrefixes: [run] })).map((event) => event.id)).toEqual([kept.id]);
      const reused = await rejection(
        store.append(nonce, [newEvent('NonceUsed')], { expectedRevision: 'no_stream' }),
      );
      expect(reused).toBeInstanceOf(WrongExpectedVersionError);
      expect(reused).toMatchObject({ actual: 0 });
      await store.append(`${run}-other-1`, [newEvent('After')], { expectedRevision: 0 });
      expect(await store.readStream(nonce)).toEqual([]);
    });

    it('keeps only the newest maxCount events, and the revision keeps counting', async () => {
      const { store } = context.harness();
      const run = uniqueName('cap');
      const stream = `${run}-checkpoint`;
      await store.append(stream, [newEvent('Stored', { n: 0 })], {
        expectedRevision: 'no_stream',
        maxCount: 2,
      });
      for (let n = 1; n < 5; n++)
        await store.append(stream, [newEvent('Stored', { n })], { expectedRevision: n - 1 });

      expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([3, 4]);
      expect(await store.readStreamRevision(stream)).toBe(4);
      expect((await store.readStream(stream, { direction: 'backwards' })).map((event) => event.data)).toEqual(
        [{ n: 4 }, { n: 3 }],
      );
      expect((await store.readAll({ streamPrefixes: [run] })).map((event) => event.revision)).toEqual([3, 4]);
      const next = await store.append(stream, [newEvent('Stored', { n: 5 })], { expectedRevision: 4 });
      expect(next.nextRevision).toBe(5);
      expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([4, 5]);
    });
  });
}
