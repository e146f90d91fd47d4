import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@svc/testing';
import { type RecordedEvent } from '../event-store.port';
import { newEvent, waitFor } from '../testing/contract/contract-helpers';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { SqliteEventStore } from './sqlite-event-store.adapter';
import { appendWithRetry } from './testing/append-with-retry';
import { startChildWriter } from './testing/child-writer';

describeEventStoreContract('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-'));
  // A nested path: open() creates missing parent directories.
  const file = join(dir, 'data', 'events.sqlite');
  const time = new ManualClock(Date.now());
  const clock = () => new Date(time.now());
  let store = SqliteEventStore.open({ file, clock });
  return Promise.resolve({
    store,
    advanceClock: (ms) => time.advance(ms),
    subscriptionReads: () => store.subscriptionReads,
    restart: async () => {
      await store.close();
      store = SqliteEventStore.open({ file, clock });
      return store;
    },
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});

describe('SqliteEventStore on one file', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'event-store-'));
    file = join(dir, 'events.sqlite');
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("delivers another process's appends to a live subscription, in order", async () => {
    store = SqliteEventStore.open({ file });
    const handled: RecordedEvent[] = [];
    const subscription = await store.subscribe({
      subscriptionId: 'from-child',
      streamPrefixes: ['child-'],
      handler: (event) => {
        handled.push(event);
        return Promise.resolve();
      },
    });
    const child = startChildWriter(file, 'child-1', 30);
    await child.ready;
    child.go();
    await child.done;

    await waitFor(() => handled.length >= 30, 'the child events');
    await subscription.stop();
    expect(handled.map((event) => event.revision)).toEqual([...Array(30).keys()]);
    expect(handled.map((event) => event.data)).toEqual(
      [...Array(30).keys()].map((n) => ({ writer: 'child', n })),
    );
  });

  it("delivers another process's appends to a live subscription (subscribeLive), nothing from before it", async () => {
    store = SqliteEventStore.open({ file, pollIntervalMs: 20 });
    await store.append('child-3', [newEvent('Before')], { expectedRevision: 'no_stream' });
    const handled: RecordedEvent[] = [];
    const subscription = await store.subscribeLive({
      streamPrefixes: ['child-'],
      handler: (event) => {
        handled.push(event);
        return Promise.resolve();
      },
    });
    const child = startChildWriter(file, 'child-4', 30);
    await child.ready;
    child.go();
    await child.done;

    await waitFor(() => handled.length >= 30, 'the child events');
    await subscription.stop();
    expect(handled.map((event) => event.data)).toEqual(
      [...Array(30).keys()].map((n) => ({ writer: 'child', n })),
    );
  });

  it("reads for another process's appends, not for this process's appends to other streams", async () => {
    store = SqliteEventStore.open({ file, pollIntervalMs: 20 });
    const handled: RecordedEvent[] = [];
    const subscription = await store.subscribe({
      subscriptionId: 'from-child-only',
      streamPrefixes: ['child-'],
      handler: (event) => {
        handled.push(event);
        return Promise.resolve();
      },
    });
    await waitFor(() => store.subscriptionReads > 0, 'the first read');
    const child = startChildWriter(file, 'child-2', 30);
    await child.ready;
    const before = store.subscriptionReads;
    child.go();
    for (let n = 0; n < 300; n++) {
      await store.append(`nonce-${n}`, [newEvent('NonceUsed')], { expectedRevision: 'no_stream' });
      if (n % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await child.done;
    await waitFor(() => handled.length >= 30, 'the child events');
    await subscription.stop();

    expect(handled.map((event) => event.data)).toEqual(
      [...Array(30).keys()].map((n) => ({ writer: 'child', n })),
    );
    // At most one read per poll that saw the child commit: never one per append of this process.
    expect(store.subscriptionReads - before).toBeLessThanOrEqual(31);
  });

  it('never gives one revision twice when two processes append to one stream', async () => {
    store = SqliteEventStore.open({ file });
    const perWriter = 40;
    const child = startChildWriter(file, 'shared-1', perWriter);
    await child.ready;
    child.go();
    for (let n = 0; n < perWriter; n++) {
      await appendWithRetry(store, 'shared-1', {
        id: randomUUID(),
        type: 'Appended',
        data: { writer: 'parent', n },
      });
    }
    await child.done;

    const events = await store.readStream('shared-1');
    expect(events.map((event) => event.revision)).toEqual([...Array(2 * perWriter).keys()]);
    expect(new Set(events.map((event) => event.id)).size).toBe(2 * perWriter);
    for (const writer of ['parent', 'child']) {
      const sequence = events.filter((event) => event.data.writer === writer).map((event) => event.data.n);
      expect(sequence).toEqual([...Array(perWriter).keys()]);
    }
  });

  it('deletes expired and capped rows but keeps the stream revision', async () => {
    const time = new ManualClock(Date.now());
    store = SqliteEventStore.open({ file, clock: () => new Date(time.now()) });
    await store.append('nonce-1', [newEvent('NonceUsed')], {
      expectedRevision: 'no_stream',
      maxAgeSeconds: 60,
    });
    for (let n = 0; n < 5; n++) {
      await store.append('checkpoint-1', [newEvent('Stored')], {
        expectedRevision: n - 1 < 0 ? 'no_stream' : n - 1,
        maxCount: 2,
      });
    }
    time.advance(61_000);
    await store.append('other-1', [newEvent('Tick')], { expectedRevision: 'no_stream' });

    const db = new Database(file, { readonly: true });
    try {
      const rows = (streamId: string): unknown =>
        db.prepare('SELECT count(*) AS n FROM events WHERE stream_id = ?').get(streamId);
      expect(rows('nonce-1')).toEqual({ n: 0 });
      expect(rows('checkpoint-1')).toEqual({ n: 2 });
      expect(db.prepare('SELECT revision FROM streams WHERE stream_id = ?').get('nonce-1')).toEqual({
        revision: 0,
      });
    } finally {
      db.close();
    }
  });
});
