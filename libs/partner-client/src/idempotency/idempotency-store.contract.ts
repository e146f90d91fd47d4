import { type IdempotencyStore } from './idempotency-store';

/** The behaviour every IdempotencyStore adapter owes the client; each adapter's spec runs it. */
export function describeIdempotencyStoreContract(name: string, create: () => IdempotencyStore): void {
  describe(`${name} (IdempotencyStore contract)`, () => {
    it('returns undefined for an unknown operation', async () => {
      expect(await create().get('nope')).toBeUndefined();
    });

    it('returns what was put, byte for byte', async () => {
      const store = create();
      const body = '{"a":"é€\\u0000","b":[1,2]}';
      await store.put('op', { key: 'k', body });
      expect(await store.get('op')).toEqual({ key: 'k', body });
    });

    it('overwrites on put and forgets on delete', async () => {
      const store = create();
      await store.put('op', { key: 'k1', body: '{}' });
      await store.put('op', { key: 'k2', body: '[]' });
      expect(await store.get('op')).toEqual({ key: 'k2', body: '[]' });
      await store.delete('op');
      await store.delete('never-there');
      expect(await store.get('op')).toBeUndefined();
    });

    it('keeps every record of concurrent puts', async () => {
      const store = create();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.put(`op-${i}`, { key: `k-${i}`, body: `${i}` })),
      );
      const records = await Promise.all(Array.from({ length: 20 }, (_, i) => store.get(`op-${i}`)));
      expect(records.map((r) => r?.key)).toEqual(Array.from({ length: 20 }, (_, i) => `k-${i}`));
    });

    it('hands out copies, so a caller cannot change what is stored', async () => {
      const store = create();
      await store.put('op', { key: 'k', body: '{}' });
      const record = await store.get('op');
      record!.body = 'changed';
      expect(await store.get('op')).toEqual({ key: 'k', body: '{}' });
    });
  });
}
