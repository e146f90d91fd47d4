import { EventStoreClosedError } from './event-store-closed.error';
import { type EventStore, WrongExpectedVersionError } from './event-store.port';
import { MemoryEventStore } from './memory/memory-event-store.adapter';
import { watchWrites, writeHealthOf } from './write-health';

const event = (id: string) => ({ id, type: 'Noted', data: {} });

/** A memory store whose appends fail with `error` while it is set. */
function failingStore() {
  const inner = new MemoryEventStore();
  const control = { error: null as Error | null };
  const store: EventStore = new Proxy(inner, {
    get(target, property) {
      if (property === 'append')
        return (...args: Parameters<EventStore['append']>) =>
          control.error === null ? target.append(...args) : Promise.reject(control.error);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, control };
}

describe('watchWrites (security review N-L7)', () => {
  it('is unhealthy after an append the store failed, until one succeeds', async () => {
    const { store, control } = failingStore();
    const watched = watchWrites(store, { holdMs: 60_000 });
    const health = writeHealthOf(watched);
    await expect(health.check()).resolves.toBeUndefined();
    control.error = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    await expect(watched.append('s-1', [event('a')], { expectedRevision: 'any' })).rejects.toThrow(
      /disk is full/,
    );
    await expect(health.check()).rejects.toThrow(
      /an append failed \d+ ms ago: SQLITE_FULL: database or disk is full/,
    );
    control.error = null;
    await watched.append('s-1', [event('b')], { expectedRevision: 'any' });
    await expect(health.check()).resolves.toBeUndefined();
  });

  it('forgets a failure after holdMs, so an instance without traffic is tried again', async () => {
    let now = 0;
    const { store, control } = failingStore();
    const watched = watchWrites(store, { holdMs: 10_000, now: () => now });
    control.error = new Error('connection lost');
    await watched.append('s-1', [event('a')], { expectedRevision: 'any' }).catch(() => undefined);
    now = 9_999;
    await expect(writeHealthOf(watched).check()).rejects.toThrow(/connection lost/);
    now = 10_000;
    await expect(writeHealthOf(watched).check()).resolves.toBeUndefined();
  });

  it.each([
    ['a revision conflict', new WrongExpectedVersionError('s-1', 0, 3)],
    ['a closed store', new EventStoreClosedError()],
  ])('does not count %s', async (_, error) => {
    const { store, control } = failingStore();
    const watched = watchWrites(store);
    control.error = error;
    await watched.append('s-1', [event('a')], { expectedRevision: 0 }).catch(() => undefined);
    await expect(writeHealthOf(watched).check()).resolves.toBeUndefined();
  });

  it("runs the adapter's write probe, watches a store once, and keeps every other method", async () => {
    const store = new MemoryEventStore();
    const probing = Object.assign(store, { probeWrite: () => Promise.reject(new Error('SQLITE_READONLY')) });
    const watched = watchWrites(probing);
    expect(watchWrites(watched)).toBe(watched);
    await expect(writeHealthOf(watched).check()).rejects.toThrow('SQLITE_READONLY');
    await expect(writeHealthOf(probing).check()).rejects.toThrow('SQLITE_READONLY');
    await watched.append('s-1', [event('a')], { expectedRevision: 'no_stream' });
    expect(await watched.readStream('s-1')).toHaveLength(1);
  });
});
