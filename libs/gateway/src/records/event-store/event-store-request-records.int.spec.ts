import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { describeRequestRecordsContract } from '../testing/request-records.contract';
import { eventStoreRequestRecords } from './event-store-request-records';

describeRequestRecordsContract('streams in the memory event store', (options) => {
  const time = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
  const clock = () => new Date(time.now());
  let store = new MemoryEventStore({ clock });
  return Promise.resolve({
    connections: () => [eventStoreRequestRecords(store, options)],
    now: () => time.now(),
    advanceClock: (ms) => time.advance(ms),
    restart: async () => {
      await store.close();
      store = new MemoryEventStore({ clock, state: store.state });
    },
    cleanup: () => store.close(),
  });
});

describeRequestRecordsContract('streams in the SQLite event store (three connections)', (options) => {
  const dir = mkdtempSync(join(tmpdir(), 'request-records-streams-'));
  const file = join(dir, 'events.sqlite');
  const time = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
  const open = () =>
    Array.from({ length: 3 }, () => SqliteEventStore.open({ file, clock: () => new Date(time.now()) }));
  let stores = open();
  const closeAll = () => Promise.all(stores.map((store) => store.close()));
  return Promise.resolve({
    connections: () => stores.map((store) => eventStoreRequestRecords(store, options)),
    now: () => time.now(),
    advanceClock: (ms) => time.advance(ms),
    restart: async () => {
      await closeAll();
      stores = open();
    },
    cleanup: async () => {
      await closeAll();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});
