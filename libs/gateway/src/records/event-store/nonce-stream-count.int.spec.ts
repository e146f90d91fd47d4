import { randomUUID } from 'node:crypto';
import { type EventStore, EventStoreDbEventStore, MemoryEventStore } from '@svc/event-store';
import {
  ManualClock,
  probeContainerRuntime,
  type RunningEventStoreDb,
  startEventStoreDb,
} from '@svc/testing';
import { NonceRegistry } from '../../nonce/nonce-registry';
import { countingStreams, namespacedStreams } from '../testing/store-wrappers';
import { eventStoreRequestRecords } from './event-store-request-records';
import { NONCE_BUCKET_SHARDS, NONCE_BUCKET_WINDOW_MS, partnerDigest } from './nonce-buckets';

/** M10: 10 000 signed requests of one partner over 100 minutes, 100 a minute (in a burst: the clock moves less). */
const BINDS = 10_000;
const PER_MINUTE = 100;
const START = Date.parse('2026-11-25T10:00:00Z');
const momentOf = (i: number) => START + Math.floor(i / PER_MINUTE) * 60_000 + (i % PER_MINUTE) * 5;
/** The windows the binds' moments fall in. */
const WINDOWS = Math.ceil(((BINDS / PER_MINUTE) * 60_000) / NONCE_BUCKET_WINDOW_MS);

/**
 * Binds BINDS fresh nonces of partner `p` as the pipeline does (check, then bind), and answers the streams the
 * store's appends wrote to.
 */
async function bindMany(open: (clock: () => Date) => EventStore): Promise<Set<string>> {
  const time = new ManualClock(START);
  const inner = open(() => new Date(time.now()));
  const { store, streams } = countingStreams(inner);
  try {
    const records = eventStoreRequestRecords(store, { idempotencyRetentionSeconds: 86_400, clock: time });
    const nonces = new NonceRegistry(records.nonces);
    for (let i = 0; i < BINDS; i++) {
      time.set(momentOf(i));
      const nonce = `n-${i.toString(36).padStart(16, '0')}`;
      if (!(await nonces.isAvailable('p', nonce, `tuple-${i}`))) throw new Error(`${nonce} taken`);
      if (!(await nonces.bind('p', nonce, `tuple-${i}`, time.now()))) throw new Error(`${nonce} refused`);
    }
    return streams;
  } finally {
    await inner.close();
  }
}

function expectBucketed(streams: Set<string>): void {
  expect(WINDOWS).toBe(10);
  // Before the buckets: one stream per request, 10 000 (and as many metadata writes on EventStoreDB).
  expect(streams.size).toBeLessThanOrEqual(WINDOWS * NONCE_BUCKET_SHARDS);
  expect(streams.size).toBeGreaterThan((WINDOWS - 1) * NONCE_BUCKET_SHARDS);
  for (const streamId of streams)
    expect(streamId).toMatch(new RegExp(`^nonce-${partnerDigest('p')}-20261125T1[01][0-5]0-[0-9a-f]$`));
}

// The adapter names the streams whatever the store; memory here, EventStoreDB below where containers run. (The SQLite
// event store runs the records' contract; with EVENT_STORE=sqlite the records are tables, not streams.)
describe('the nonce streams of 10 000 signed requests of one partner over 100 minutes', () => {
  it('are at most windows × shards (160) in the memory event store', async () => {
    expectBucketed(await bindMany((clock) => new MemoryEventStore({ clock })));
  }, 60_000);
});

const runtime = probeContainerRuntime();
if (!runtime.available) {
  process.stdout.write(`nonce streams on eventstoredb: skipped, no container runtime (${runtime.reason})\n`);
}

// Skipped where no container runtime answers (EventStoreDB runs in a container; the reason is printed at collection).
(runtime.available ? describe : describe.skip)('the nonce streams of 10 000 requests on EventStoreDB', () => {
  let server: RunningEventStoreDb | undefined;
  beforeAll(async () => {
    server = await startEventStoreDb();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('are at most windows × shards (160)', async () => {
    const streams = await bindMany(() => {
      if (server === undefined) throw new Error('EventStoreDB did not start');
      // The server keeps its own time; only the records' windows follow the test's clock.
      const store = EventStoreDbEventStore.fromConnectionString(server.connectionString);
      return namespacedStreams(store, `count${randomUUID().replaceAll('-', '')}-`);
    });
    expectBucketed(streams);
  }, 300_000);
});
