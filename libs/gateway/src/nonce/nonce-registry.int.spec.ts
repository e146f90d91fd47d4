import { MemoryEventStore } from '@svc/event-store';
import { EventStoreNonceStore } from '../records/event-store/event-store-nonce-store.adapter';
import { NONCE_BUCKET_MAX_AGE_SECONDS } from '../records/event-store/nonce-buckets';
import { NONCE_RETENTION_SECONDS, NonceRegistry } from './nonce-registry';

describe('NonceRegistry (memory event store, controlled clock)', () => {
  let now = Date.parse('2026-11-21T10:00:00Z');
  const store = new MemoryEventStore({ clock: () => new Date(now) });
  const nonces = new NonceRegistry(new EventStoreNonceStore(store, { clock: { now: () => now } }));

  it('keeps bindings at least the ±5 min window plus 60 s', () => {
    expect(NONCE_RETENTION_SECONDS).toBeGreaterThanOrEqual(10 * 60 + 60);
  });

  it('binds a nonce to one tuple: the same tuple again is fine, another is refused', async () => {
    expect(await nonces.bind('p', 'nonce-aaaaaaaaaaaaaaaa', 'tuple-1', now)).toBe(true);
    expect(await nonces.bind('p', 'nonce-aaaaaaaaaaaaaaaa', 'tuple-1', now)).toBe(true);
    expect(await nonces.bind('p', 'nonce-aaaaaaaaaaaaaaaa', 'tuple-2', now)).toBe(false);
    expect(await nonces.isAvailable('p', 'nonce-aaaaaaaaaaaaaaaa', 'tuple-1')).toBe(true);
    expect(await nonces.isAvailable('p', 'nonce-aaaaaaaaaaaaaaaa', 'tuple-2')).toBe(false);
    const bucket = await store.readStream(NonceRegistry.streamId('p', 'nonce-aaaaaaaaaaaaaaaa', now));
    expect(bucket.map((event) => event.data)).toEqual([
      { nonce: 'nonce-aaaaaaaaaaaaaaaa', tupleHash: 'tuple-1', usedAt: now },
      { nonce: 'nonce-aaaaaaaaaaaaaaaa', tupleHash: 'tuple-1', usedAt: now },
      { nonce: 'nonce-aaaaaaaaaaaaaaaa', tupleHash: 'tuple-2', usedAt: now },
    ]);
  });

  it('still refuses another tuple just before the retention ends', async () => {
    await nonces.bind('p', 'nonce-bbbbbbbbbbbbbbbb', 'tuple-1', now);
    now += NONCE_RETENTION_SECONDS * 1000 - 1000;
    expect(await nonces.isAvailable('p', 'nonce-bbbbbbbbbbbbbbbb', 'tuple-2')).toBe(false);
    expect(await nonces.bind('p', 'nonce-bbbbbbbbbbbbbbbb', 'tuple-2', now)).toBe(false);
  });

  it('takes a nonce as new once its bucket is past every read (as the SQLite table, after the retention)', async () => {
    await nonces.bind('p', 'nonce-dddddddddddddddd', 'tuple-1', now);
    now += NONCE_BUCKET_MAX_AGE_SECONDS * 1000;
    expect(await nonces.isAvailable('p', 'nonce-dddddddddddddddd', 'tuple-2')).toBe(true);
    expect(await nonces.bind('p', 'nonce-dddddddddddddddd', 'tuple-2', now)).toBe(true);
  });

  it('scopes nonces per partner', async () => {
    expect(await nonces.bind('p1', 'nonce-cccccccccccccccc', 'tuple-1', now)).toBe(true);
    expect(await nonces.bind('p2', 'nonce-cccccccccccccccc', 'tuple-9', now)).toBe(true);
  });
});
