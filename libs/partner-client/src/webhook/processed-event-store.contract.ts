import { type ProcessedEventStore } from './processed-event-store';

/** The behaviour every ProcessedEventStore adapter owes the receiver; each adapter's spec runs it. */
export function describeProcessedEventStoreContract(name: string, create: () => ProcessedEventStore): void {
  describe(`${name} (ProcessedEventStore contract)`, () => {
    it('does not know an event it was never told about', async () => {
      expect(await create().has('evt_unknown')).toBe(false);
    });

    it('knows an added event, and only that one', async () => {
      const store = create();
      await store.add('evt_1');
      expect(await store.has('evt_1')).toBe(true);
      expect(await store.has('evt_10')).toBe(false);
      expect(await store.has('EVT_1')).toBe(false);
    });

    it('accepts the same event twice', async () => {
      const store = create();
      await store.add('evt_1');
      await store.add('evt_1');
      expect(await store.has('evt_1')).toBe(true);
    });

    it('keeps every event of concurrent adds', async () => {
      const store = create();
      const ids = Array.from({ length: 20 }, (_, i) => `evt_${i}`);
      await Promise.all(ids.map((id) => store.add(id)));
      expect(await Promise.all(ids.map((id) => store.has(id)))).toEqual(ids.map(() => true));
    });
  });
}
