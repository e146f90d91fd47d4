import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import { NonceRegistry } from '../../nonce/nonce-registry';
import { EventStoreNonceStore } from './event-store-nonce-store.adapter';
import { NONCE_BUCKET_WINDOW_MS, NONCE_CLOCK_SKEW_MS } from './nonce-buckets';

const BOUNDARY = Date.parse('2026-11-25T10:10:00Z');
const NONCE = 'nonce-aaaaaaaaaaaaaaaa';

describe('nonce buckets around a window boundary (SQLite event store, three connections)', () => {
  let dir: string;
  let stores: SqliteEventStore[];
  let now: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nonce-buckets-'));
    now = BOUNDARY;
    stores = Array.from({ length: 3 }, () =>
      SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock: () => new Date(now) }),
    );
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** One registry per connection, each with its replica's clock (`offset` ms off the test's). */
  const registries = (offset = 0) =>
    stores.map(
      (store) => new NonceRegistry(new EventStoreNonceStore(store, { clock: { now: () => now + offset } })),
    );

  it('gives a nonce to one of 60 binds in flight on both sides of the boundary, each with its own tuple', async () => {
    const all = registries();
    const binds = Array.from({ length: 60 }, (_, i) => ({
      tuple: `tuple-${i}`,
      at: BOUNDARY + (i % 2 === 0 ? -1 - i : i),
    }));
    const bound = await Promise.all(
      binds.map(({ tuple, at }, i) => all[i % all.length].bind('p', NONCE, tuple, at)),
    );
    expect(bound.filter(Boolean)).toHaveLength(1);
    const winner = binds[bound.indexOf(true)].tuple;
    for (const registry of registries()) {
      expect(await registry.isAvailable('p', NONCE, winner)).toBe(true);
      expect(await registry.isAvailable('p', NONCE, 'tuple-other')).toBe(false);
    }
  });

  it('sees a bind made by a replica whose clock is already in the next window (skew within the margin)', async () => {
    const [ahead] = registries(NONCE_CLOCK_SKEW_MS - 1);
    const [, behind] = registries();
    now = BOUNDARY - 10_000;
    expect(await ahead.bind('p', NONCE, 'tuple-1', now + NONCE_CLOCK_SKEW_MS - 1)).toBe(true);
    expect(await behind.isAvailable('p', NONCE, 'tuple-2')).toBe(false);
    expect(await behind.bind('p', NONCE, 'tuple-2', now)).toBe(false);
    expect(await behind.bind('p', NONCE, 'tuple-1', now)).toBe(true);
  });

  it('accepts the retried delivery of the same bytes in the next window, and refuses other bytes there', async () => {
    const [first, second] = registries();
    expect(await first.bind('p', NONCE, 'tuple-1', BOUNDARY - 1)).toBe(true);
    now = BOUNDARY + NONCE_BUCKET_WINDOW_MS / 2;
    expect(await second.bind('p', NONCE, 'tuple-1', now)).toBe(true);
    expect(await second.bind('p', NONCE, 'tuple-2', now)).toBe(false);
  });

  it('keeps partners with the same nonce apart in every window', async () => {
    const [registry] = registries();
    expect(await registry.bind('a', NONCE, 'tuple-1', BOUNDARY - 1)).toBe(true);
    expect(await registry.bind('a-b', NONCE, 'tuple-2', BOUNDARY)).toBe(true);
  });
});

describe('what an instance reads of a bucket', () => {
  it('reads only the events appended since its last read', async () => {
    const now = BOUNDARY;
    const store = new MemoryEventStore({ clock: () => new Date(now) });
    const reads: [string, number | undefined][] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = (streamId, options) => {
      reads.push([streamId, options?.fromRevision]);
      return readStream(streamId, options);
    };
    const nonces = new NonceRegistry(new EventStoreNonceStore(store, { clock: { now: () => now } }));
    const bucket = NonceRegistry.streamId('p', NONCE, now);
    for (let i = 0; i < 3; i++) await nonces.bind('p', NONCE, 'tuple-1', now);
    // Each bind reads its bucket from where the last read ended (and the two windows before, empty, from 0).
    expect(reads.filter(([streamId]) => streamId === bucket).map(([, from]) => from)).toEqual([0, 1, 2]);
    expect(reads.filter(([streamId]) => streamId !== bucket).map(([, from]) => from)).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
    expect(await readStream(bucket)).toHaveLength(3);
    await store.close();
  });
});
