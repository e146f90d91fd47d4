import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import {
  InProcessBroker,
  InProcessClient,
  type LifecycleMessage,
  NestMessageBus,
  Topic,
} from '@svc/messaging';
import { ManualClock } from '@svc/testing';
import { OutboxRelay } from './outbox-relay';

/**
 * The outbox relay's single lease over a real SQLite file, with each relay on its own connection (as two processes
 * would be) and the lease clock under the test's control; published messages cross the in-process wire.
 */
describe('OutboxRelay lease', () => {
  const TTL = 600; // rounds every 200 ms of real time; ownership ends 120 ms before the lease does
  let dir: string;
  let clock: ManualClock;
  let writer: SqliteEventStore;
  let published: LifecycleMessage[];
  let bus: NestMessageBus;
  const opened: SqliteEventStore[] = [];
  const relays: OutboxRelay[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-relay-'));
    clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
    writer = open();
    revision = -1;
    published = [];
    const broker = new InProcessBroker();
    broker.attach({
      handles: (pattern) => pattern === Topic.attemptLifecycle,
      receive: (packet) => {
        published.push((packet.data as { value: LifecycleMessage }).value);
      },
    });
    bus = new NestMessageBus(new InProcessClient(broker));
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.onApplicationShutdown()));
    await Promise.all(opened.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  function open(): SqliteEventStore {
    const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    opened.push(store);
    return store;
  }

  async function startRelay(instanceId: string): Promise<OutboxRelay> {
    const relay = new OutboxRelay(open(), bus, clock, { instanceId, shardCount: 4, leaseTtlMs: TTL });
    relays.push(relay);
    await relay.onApplicationBootstrap();
    return relay;
  }

  let revision: number;
  async function lifecycleEvent(
    type: 'AttemptWalletSubmitted' | 'AttemptProviderPending' | 'AttemptSettled',
  ) {
    const id = randomUUID();
    await writer.append('attempt-a1', [{ id, type, data: { at: clock.now() } }], {
      expectedRevision: revision < 0 ? 'no_stream' : revision,
    });
    revision++;
    return id;
  }

  async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const ids = () => published.map((m) => m.eventId);

  it('pauses when its lease lapses mid-stream and resumes once the lease is renewed, losing nothing', async () => {
    const relay = await startRelay('relay-a');
    expect(relay.relaying).toBe(true);
    const first = await lifecycleEvent('AttemptWalletSubmitted');
    await until('the first message', () => published.length === 1);

    // The renewal timer fell behind (a stalled process): ownership ends before the next round renews it.
    clock.advance(TTL - TTL / 5);
    const second = await lifecycleEvent('AttemptProviderPending');
    await until('the relay to stop on the lapse', () => !relay.relaying, 2_000).catch(() => undefined);
    // The next round reports the lapse, renews, and the relay resumes from its checkpoint.
    await until('the second message after the renewal', () => published.length === 2);
    expect(relay.relaying).toBe(true);
    const third = await lifecycleEvent('AttemptSettled');
    await until('the third message', () => published.length === 3);
    expect(ids()).toEqual([first, second, third]);
    expect(published.map((m) => m.event)).toEqual(['wallet_submitted', 'provider_pending', 'settled']);
  });

  it('relays on one instance only, and another takes over at once when it stops', async () => {
    const a = await startRelay('relay-a');
    const b = await startRelay('relay-b');
    expect([a.relaying, b.relaying]).toEqual([true, false]);
    const first = await lifecycleEvent('AttemptWalletSubmitted');
    await until('the first message', () => published.length === 1);

    await a.onApplicationShutdown(); // hands the lease back
    await until('b to take the lease at its next round', () => b.relaying);
    const second = await lifecycleEvent('AttemptProviderPending');
    await until('the second message', () => published.length === 2);
    await new Promise((r) => setTimeout(r, 300)); // a round later: still nothing relayed twice
    expect(ids()).toEqual([first, second]);
  });
});
