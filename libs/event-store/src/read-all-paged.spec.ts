import { MemoryEventStore } from './memory/memory-event-store.adapter';
import { readAllPaged } from './read-all-paged';

describe('readAllPaged', () => {
  it('hands over every matching event after the position, across pages, and returns the last position', async () => {
    const store = new MemoryEventStore();
    for (let i = 0; i < 7; i++) {
      await store.append(`a-${i}`, [{ id: crypto.randomUUID(), type: 'A', data: { i } }], {
        expectedRevision: 'any',
      });
      await store.append(`b-${i}`, [{ id: crypto.randomUUID(), type: 'B', data: { i } }], {
        expectedRevision: 'any',
      });
    }
    const seen: number[] = [];
    const last = await readAllPaged(store, { after: undefined, streamPrefixes: ['a-'], pageSize: 3 }, (e) =>
      seen.push(e.data['i'] as number),
    );
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);

    await store.append('a-7', [{ id: crypto.randomUUID(), type: 'A', data: { i: 7 } }], {
      expectedRevision: 'any',
    });
    const later: number[] = [];
    const next = await readAllPaged(store, { after: last, streamPrefixes: ['a-'], pageSize: 3 }, (e) =>
      later.push(e.data['i'] as number),
    );
    expect(later).toEqual([7]);
    expect(await readAllPaged(store, { after: next, streamPrefixes: ['a-'] }, () => undefined)).toBe(next);
    await store.close();
  });
});
