import { NONCE_RETENTION_SECONDS } from '../../nonce/nonce-retention';
import { NonceRegistry } from '../../nonce/nonce-registry';
import { type RequestRecordsContext } from './request-records-harness';

const NONCE = 'nonce-aaaaaaaaaaaaaaaa';

export function describeNonceStoreContract(context: RequestRecordsContext): void {
  describe('nonces', () => {
    const registries = () =>
      context
        .harness()
        .connections()
        .map((records) => new NonceRegistry(records.nonces));
    const now = () => context.harness().now();

    it('binds an unused nonce to one tuple: the same tuple again is fine, another is refused', async () => {
      const [nonces] = registries();
      expect(await nonces.isAvailable('p', NONCE, 'tuple-1')).toBe(true);
      expect(await nonces.bind('p', NONCE, 'tuple-1', now())).toBe(true);
      expect(await nonces.bind('p', NONCE, 'tuple-1', now())).toBe(true);
      expect(await nonces.bind('p', NONCE, 'tuple-2', now())).toBe(false);
      expect(await nonces.isAvailable('p', NONCE, 'tuple-1')).toBe(true);
      expect(await nonces.isAvailable('p', NONCE, 'tuple-2')).toBe(false);
    });

    it('scopes nonces per partner', async () => {
      const [nonces] = registries();
      expect(await nonces.bind('p1', NONCE, 'tuple-1', now())).toBe(true);
      expect(await nonces.bind('p2', NONCE, 'tuple-9', now())).toBe(true);
    });

    it("keeps partners apart whatever their ids hold (L3): 'a' + 'b-…' and 'a-b' + '…' both bind", async () => {
      const [nonces] = registries();
      const tail = 'xxxxxxxxxxxxxxxx';
      expect(await nonces.bind('a', `b-${tail}`, 'tuple-1', now())).toBe(true);
      expect(await nonces.bind('a-b', tail, 'tuple-2', now())).toBe(true);
      expect(await nonces.isAvailable('a', `b-${tail}`, 'tuple-2')).toBe(false);
      expect(await nonces.isAvailable('a-b', tail, 'tuple-1')).toBe(false);
    });

    it('decides concurrent first uses once: of 20 binds with two tuples, one tuple wins them all', async () => {
      const all = registries();
      const tuples = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'tuple-a' : 'tuple-b'));
      const bound = await Promise.all(
        tuples.map((tuple, i) => all[i % all.length].bind('p', NONCE, tuple, now())),
      );
      const winners = new Set(tuples.filter((_, i) => bound[i]));
      expect(winners.size).toBe(1);
      const [winner] = winners;
      expect(bound).toEqual(tuples.map((tuple) => tuple === winner));
      expect(await all[0].isAvailable('p', NONCE, winner === 'tuple-a' ? 'tuple-b' : 'tuple-a')).toBe(false);
    });

    it('gives a nonce to exactly one of 100 binds in flight at once, each with its own tuple', async () => {
      const all = registries();
      const tuples = Array.from({ length: 100 }, (_, i) => `tuple-${i}`);
      const bound = await Promise.all(
        tuples.map((tuple, i) => all[i % all.length].bind('p', NONCE, tuple, now())),
      );
      expect(bound.filter(Boolean)).toHaveLength(1);
      const winner = tuples[bound.indexOf(true)];
      const again = await Promise.all(tuples.map((tuple) => all[0].isAvailable('p', NONCE, tuple)));
      expect(again).toEqual(tuples.map((tuple) => tuple === winner));
    });

    it('binds every one of 300 different nonces in flight at once', async () => {
      const all = registries();
      const nonces = Array.from({ length: 300 }, (_, i) => `nonce-${String(i).padStart(16, '0')}`);
      const bound = await Promise.all(
        nonces.map((nonce, i) => all[i % all.length].bind('p', nonce, `tuple-${i}`, now())),
      );
      expect(bound.every(Boolean)).toBe(true);
      expect(await all.at(-1)!.bind('p', nonces[7], 'tuple-other', now())).toBe(false);
    });

    it('keeps a binding for the whole retention', async () => {
      const [nonces] = registries();
      await nonces.bind('p', NONCE, 'tuple-1', now());
      context.harness().advanceClock(NONCE_RETENTION_SECONDS * 1000 - 1000);
      expect(await nonces.isAvailable('p', NONCE, 'tuple-2')).toBe(false);
      expect(await nonces.bind('p', NONCE, 'tuple-2', now())).toBe(false);
      expect(await nonces.bind('p', NONCE, 'tuple-1', now())).toBe(true);
    });

    it('keeps bindings across a restart', async () => {
      await registries()[0].bind('p', NONCE, 'tuple-1', now());
      await context.harness().restart();
      const [nonces] = registries();
      expect(await nonces.bind('p', NONCE, 'tuple-2', now())).toBe(false);
      expect(await nonces.bind('p', NONCE, 'tuple-1', now())).toBe(true);
    });
  });
}
