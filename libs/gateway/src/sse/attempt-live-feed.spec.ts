import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LiveSubscribeOptions, MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import { createLogger } from '@svc/platform';
import { AttemptLiveFeed, type LiveFeedWatcher } from './attempt-live-feed';

const logger = createLogger({ level: 'silent', name: 'test' });
const event = (n: number) => ({ id: randomUUID(), type: 'AttemptProviderPending', data: { at: n } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A watcher that counts its wake-ups and failures. */
function counter(): LiveFeedWatcher & { appends: number; failures: unknown[] } {
  const watcher = {
    appends: 0,
    failures: [] as unknown[],
    appended: () => void watcher.appends++,
    failed: (error: unknown) => void watcher.failures.push(error),
  };
  return watcher;
}

type Store = MemoryEventStore | SqliteEventStore;
const stores: [string, () => { store: Store; cleanup: () => Promise<void> }][] = [
  [
    'memory',
    () => {
      const store = new MemoryEventStore();
      return { store, cleanup: () => store.close() };
    },
  ],
  [
    'SQLite on a temp file',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'live-feed-'));
      const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(stores)('AttemptLiveFeed on the %s store', (_name, open) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let feed: AttemptLiveFeed;

  beforeEach(() => {
    ({ store, cleanup } = open());
    feed = new AttemptLiveFeed(store, logger);
  });
  afterEach(async () => {
    await feed.onModuleDestroy();
    await cleanup();
  });

  it('starts at the head of the log when the first stream registers: nothing of the past is read', async () => {
    for (let n = 0; n < 2000; n += 100)
      await store.append(
        'attempt-old',
        Array.from({ length: 100 }, (_, i) => event(n + i)),
        { expectedRevision: 'any' },
      );
    const readsBefore = store.subscriptionReads;
    expect(feed.running).toBe(false);
    const watcher = counter();
    const watch = await feed.watch('attempt-old', watcher);
    await sleep(100);

    expect([feed.running, feed.started, watcher.appends]).toEqual([true, 1, 0]);
    // One read of the log from its head (no event in it), whatever the history holds.
    expect(store.subscriptionReads - readsBefore).toBe(1);
    await store.append('attempt-old', [event(1)], { expectedRevision: 'any' });
    await until(() => watcher.appends === 1, 'the new event');
    watch.close();
  });

  it('wakes only the streams of the attempt an event belongs to, once per event', async () => {
    const [a1, a2, b] = [counter(), counter(), counter()];
    const watches = [
      await feed.watch('attempt-a', a1),
      await feed.watch('attempt-a', a2),
      await feed.watch('attempt-b', b),
    ];
    for (let n = 0; n < 3; n++) {
      await store.append('attempt-a', [event(n)], { expectedRevision: 'any' });
      await sleep(5);
    }
    await store.append('nonce-x', [event(0)], { expectedRevision: 'any' }); // not an attempt stream
    await store.append('attempt-c', [event(0)], { expectedRevision: 'any' }); // nobody watches it
    await until(() => a1.appends === 3 && a2.appends === 3, 'the events of attempt a');
    await sleep(100);
    expect([a1.appends, a2.appends, b.appends]).toEqual([3, 3, 0]);

    await store.append('attempt-b', [event(0), event(1)], { expectedRevision: 'any' });
    await until(() => b.appends === 2, 'the events of attempt b');
    expect([a1.appends, a2.appends]).toEqual([3, 3]);
    for (const watch of watches) watch.close();
  });

  it('stops when the last stream leaves, reads nothing while stopped, and starts again for the next', async () => {
    const one = await feed.watch('attempt-a', counter());
    const two = await feed.watch('attempt-b', counter());
    one.close();
    expect([feed.running, feed.watching]).toEqual([true, 1]);
    two.close();
    two.close(); // closing twice changes nothing
    expect([feed.running, feed.watching]).toEqual([false, 0]);
    await sleep(50);

    const reads = store.subscriptionReads;
    for (let n = 0; n < 20; n++) await store.append('attempt-a', [event(n)], { expectedRevision: 'any' });
    await sleep(100);
    expect(store.subscriptionReads).toBe(reads);

    const again = counter();
    const watch = await feed.watch('attempt-a', again);
    expect([feed.running, feed.started]).toEqual([true, 2]);
    await store.append('attempt-a', [event(99)], { expectedRevision: 'any' });
    await until(() => again.appends === 1, 'the event after the restart');
    await sleep(50);
    expect(again.appends).toBe(1); // none of the 20 appended while stopped
    watch.close();
  });
});

describe('AttemptLiveFeed when the store fails it', () => {
  it('tells every stream and drops it; the next stream starts a new subscription', async () => {
    const memory = new MemoryEventStore();
    const failures: ((error: unknown) => void)[] = [];
    const store = new Proxy(memory, {
      get(target, key, receiver) {
        if (key === 'subscribeLive')
          return (options: LiveSubscribeOptions) => {
            failures.push((error) => options.onError?.(error));
            return target.subscribeLive(options);
          };
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const feed = new AttemptLiveFeed(store, logger);
    const [a, b] = [counter(), counter()];
    const watches = [await feed.watch('attempt-a', a), await feed.watch('attempt-b', b)];
    failures[0](new Error('dropped by the server'));

    expect([a.failures, b.failures].map((f) => (f[0] as Error).message)).toEqual([
      'dropped by the server',
      'dropped by the server',
    ]);
    expect([feed.running, feed.watching]).toEqual([false, 0]);
    for (const watch of watches) watch.close(); // already dropped: nothing changes
    expect(feed.watching).toBe(0);

    const c = counter();
    const watch = await feed.watch('attempt-a', c);
    expect([feed.running, feed.started, failures.length]).toEqual([true, 2, 2]);
    await memory.append('attempt-a', [event(0)], { expectedRevision: 'any' });
    await until(() => c.appends === 1, 'the event after the new start');
    watch.close();
    await feed.onModuleDestroy();
    await memory.close();
  });

  it('rejects a watch whose subscription cannot start, and registers nothing', async () => {
    const store = new MemoryEventStore();
    await store.close();
    const feed = new AttemptLiveFeed(store, logger);
    await expect(feed.watch('attempt-a', counter())).rejects.toThrow();
    expect([feed.running, feed.watching]).toEqual([false, 0]);
  });
});
