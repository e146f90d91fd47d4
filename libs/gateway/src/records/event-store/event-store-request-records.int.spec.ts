import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDbEventStore, MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import {
  ManualClock,
  probeContainerRuntime,
  type RunningEventStoreDb,
  startEventStoreDb,
} from '@svc/testing';
import { describeRequestRecordsContract } from '../testing/request-records.contract';
import { namespacedStreams } from '../testing/store-wrappers';
import { eventStoreRequestRecords } from './event-store-request-records';

describeRequestRecordsContract('streams in the memory event store', (options) => {
  const time = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
  const clock = () => new Date(time.now());
  let store = new MemoryEventStore({ clock });
  return Promise.resolve({
    connections: () => [eventStoreRequestRecords(store, { ...options, clock: time })],
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
    connections: () => stores.map((store) => eventStoreRequestRecords(store, { ...options, clock: time })),
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

const runtime = probeContainerRuntime();
if (!runtime.available) {
  process.stdout.write(
    `request records on eventstoredb: skipped, no container runtime (${runtime.reason})\n`,
  );
}

// Skipped where no container runtime answers (EventStoreDB runs in a container; the reason is printed at collection).
(runtime.available ? describe : describe.skip)('request records on EventStoreDB', () => {
  let server: RunningEventStoreDb | undefined;

  beforeAll(async () => {
    server = await startEventStoreDb();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  // One server for the file, three clients per case; each case's streams under a name of its own. The server expires
  // records on its own clock, which the harness does not move (expiresWithClock: false).
  describeRequestRecordsContract('streams in EventStoreDB (three connections)', (options) => {
    const namespace = `rr${randomUUID().replaceAll('-', '')}-`;
    const time = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
    const connect = () => {
      if (server === undefined) throw new Error('EventStoreDB did not start');
      return EventStoreDbEventStore.fromConnectionString(server.connectionString);
    };
    const open = () => Array.from({ length: 3 }, connect);
    let stores = open();
    const closeAll = () => Promise.all(stores.map((store) => store.close()));
    return Promise.resolve({
      connections: () =>
        stores.map((store) =>
          eventStoreRequestRecords(namespacedStreams(store, namespace), { ...options, clock: time }),
        ),
      now: () => time.now(),
      advanceClock: (ms) => time.advance(ms),
      expiresWithClock: false,
      restart: async () => {
        await closeAll();
        stores = open();
      },
      cleanup: async () => {
        await closeAll();
      },
    });
  });
});
