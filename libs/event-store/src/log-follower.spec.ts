import { LogFollower } from './log-follower';
import { MemoryEventStore } from './memory/memory-event-store.adapter';
import { type EventStore } from './event-store.port';

const append = (store: EventStore, streamId: string, i: number) =>
  store.append(streamId, [{ id: crypto.randomUUID(), type: 'E', data: { i } }], { expectedRevision: 'any' });

describe('LogFollower', () => {
  it('hands every event of its streams over once, in order; concurrent fresh() calls share catch-ups that never overlap', async () => {
    const store = new MemoryEventStore();
    let inFlight = 0;
    let maxInFlight = 0;
    const watched = new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'readAll') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<EventStore['readAll']>) => {
          maxInFlight = Math.max(maxInFlight, ++inFlight);
          try {
            await new Promise((resolve) => setTimeout(resolve, 1));
            return await target.readAll(...args);
          } finally {
            inFlight--;
          }
        };
      },
    });
    const seen: number[] = [];
    const follower = new LogFollower(watched, {
      streamPrefixes: ['a-'],
      onEvent: (e) => seen.push(e.data['i'] as number),
      refreshMs: 1000,
      pageSize: 3,
      onError: (err) => {
        throw err;
      },
    });
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await append(store, `a-${i % 4}`, i);
        await append(store, `b-${i % 4}`, -1);
        await follower.fresh();
        // Everything appended before the call is there.
        expect(seen).toContain(i);
      }),
    );
    expect(maxInFlight).toBe(1);
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    await follower.stop();
    await store.close();
  });

  it('resumes after the last event handed over when a catch-up fails part-way', async () => {
    const store = new MemoryEventStore();
    for (let i = 0; i < 7; i++) await append(store, 'a-1', i);
    let failOnce = true;
    let calls = 0;
    const flaky = new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'readAll') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: Parameters<EventStore['readAll']>) => {
          if (++calls === 2 && failOnce) {
            failOnce = false;
            return Promise.reject(new Error('store unavailable'));
          }
          return target.readAll(...args);
        };
      },
    });
    const seen: number[] = [];
    const follower = new LogFollower(flaky, {
      streamPrefixes: ['a-'],
      onEvent: (e) => seen.push(e.data['i'] as number),
      refreshMs: 1000,
      pageSize: 3,
      onError: () => undefined,
    });
    await expect(follower.fresh()).rejects.toThrow('store unavailable');
    expect(seen).toEqual([0, 1, 2]);
    await follower.fresh();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    await follower.stop();
    await store.close();
  });
});
