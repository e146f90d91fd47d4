import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { type AttemptPreparedData } from '@svc/domain';
import { prepared } from '@svc/domain/attempt-fixture';
import {
  type EventStore,
  MemoryEventStore,
  type ReadStreamOptions,
  SqliteEventStore,
} from '@svc/event-store';
import {
  AttemptEventStreams,
  AttemptLiveFeed,
  LIVE_STATUS_LIMITS,
  type LiveStatusLimits,
} from '@svc/gateway';
import { type TestPartner } from '@svc/testing';
import { type LiveStatusStream, openLiveStatus, signedLiveStatusGet } from './live-status-client';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/** 100 streams on one attempt need a partner limit of 100; the instance limit is tested at 120. */
const LIMITS: Partial<LiveStatusLimits> = { perPartner: 100, perInstance: 120, drainTimeoutMs: 1_000 };

@Global()
@Module({ providers: [{ provide: LIVE_STATUS_LIMITS, useValue: LIMITS }], exports: [LIVE_STATUS_LIMITS] })
class LiveStatusLimitsModule {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * The live status streams pushed by one feed per process, end to end: the real gateway (signed GETs on loopback),
 * the real SQLite store on a temp file (and the memory store), every store read of an attempt stream counted by a
 * wrapper around the store.
 * No feature module runs (no tracker, no outbox), so the attempt streams are read by the live status streams only;
 * the test appends the attempts' events itself, as the settlement tracker would.
 */
const STORES: [string, (dir: string) => EventStore][] = [
  [
    'SQLite on a temp file',
    (dir) => SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
  ],
  ['memory', () => new MemoryEventStore()],
];

describe.each(STORES)(
  'live status pushed by one feed per process (%s store, HTTP on loopback)',
  (_name, openStore) => {
    let dir: string;
    let t: TestApp;
    let streams: AttemptEventStreams;
    let feed: AttemptLiveFeed;
    /** readStream calls per stream id, since the start. */
    const reads = new Map<string, number>();
    /** Runs once right after the next catch-up read (no fromRevision) of the stream, before the reader sees it. */
    const afterCatchUpRead = new Map<string, () => Promise<void>>();
    const partner = PARTNERS.v2;
    const other = PARTNERS.other;
    const third = { ...PARTNERS.v2, partnerId: 'partner-third', secret: 'secret-third-0123456789ab' };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'live-status-'));
      const store = new Proxy(openStore(dir), {
        get(target, key, receiver) {
          if (key === 'readStream')
            return async (streamId: string, options?: ReadStreamOptions) => {
              reads.set(streamId, (reads.get(streamId) ?? 0) + 1);
              const events = await target.readStream(streamId, options);
              const hook = afterCatchUpRead.get(streamId);
              if (hook !== undefined && options?.fromRevision === undefined) {
                afterCatchUpRead.delete(streamId);
                await hook();
              }
              return events;
            };
          const value = Reflect.get(target, key, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      t = await startTestApp({
        store,
        features: [LiveStatusLimitsModule],
        partners: [...Object.values(PARTNERS), third],
      });
      streams = t.app.get(AttemptEventStreams);
      feed = t.app.get(AttemptLiveFeed);
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A prepared attempt of `owner`: its stream exists, no lifecycle event yet. */
    async function newAttempt(owner: TestPartner = partner): Promise<string> {
      const attemptId = `at_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const data = {
        ...prepared,
        attemptId,
        partnerId: owner.partnerId,
        walletAuthorization: {
          ...prepared.walletAuthorization,
          message: { ...prepared.walletAuthorization.message, attemptId, partnerId: owner.partnerId },
        },
      } satisfies AttemptPreparedData;
      await t.store.append(`attempt-${attemptId}`, [{ id: randomUUID(), type: 'AttemptPrepared', data }], {
        expectedRevision: 'no_stream',
      });
      return attemptId;
    }
    const LIFECYCLE = ['AttemptWalletSubmitted', 'AttemptProviderPending', 'AttemptSettled'] as const;
    /** Appends a lifecycle event (as the tracker would) and returns its id, the webhook eventId. */
    async function lifecycle(attemptId: string, type: string): Promise<string> {
      const id = randomUUID();
      await t.store.append(`attempt-${attemptId}`, [{ id, type, data: { at: Date.now() } }], {
        expectedRevision: 'any',
      });
      return id;
    }
    const readsOf = (attemptId: string) => reads.get(`attempt-${attemptId}`) ?? 0;
    const open = (attemptId: string, owner: TestPartner = partner, lastEventId?: string) =>
      openLiveStatus({ port: t.port, partner: owner, attemptId, ...(lastEventId ? { lastEventId } : {}) });
    const idsOf = (stream: LiveStatusStream) => stream.events.map((e) => e.id);

    it('100 streams on one attempt: no store read while nothing is appended, at most one per stream per append', async () => {
      const attemptId = await newAttempt();
      const startsBefore = feed.started;
      const clients = await Promise.all(Array.from({ length: 100 }, () => open(attemptId)));
      expect(clients.map((c) => c.status)).toEqual(clients.map(() => 200));
      await until(() => clients.every((c) => c.comments.length > 0), 'every stream open');
      expect([streams.openFor(partner.partnerId), feed.watching, feed.started - startsBefore]).toEqual([
        100, 100, 1,
      ]);
      // Opening costs two reads each: the catch-up read, and one more after registering with the feed.
      await sleep(200);
      expect(readsOf(attemptId)).toBe(200);

      const quiet = readsOf(attemptId);
      await sleep(1_500); // the polling streams read 5 times a second each: 750 reads here
      expect(readsOf(attemptId) - quiet).toBe(0);

      const ids: string[] = [];
      for (const [n, type] of LIFECYCLE.entries()) {
        const before = readsOf(attemptId);
        ids.push(await lifecycle(attemptId, type));
        await until(() => clients.every((c) => c.events.length === n + 1), `event ${n + 1} on every stream`);
        await sleep(200);
        expect(readsOf(attemptId) - before).toBeLessThanOrEqual(100);
        expect(readsOf(attemptId) - before).toBeGreaterThanOrEqual(100);
      }
      await Promise.all(clients.map((c) => c.ended)); // settled ends every stream
      for (const client of clients) {
        expect(idsOf(client)).toEqual(ids);
        expect(client.events.map((e) => e.event)).toEqual([
          'wallet_submitted',
          'provider_pending',
          'settled',
        ]);
      }
      await until(() => !feed.running, 'the feed to stop');
      expect([streams.openStreams, feed.watching]).toEqual([0, 0]);
    }, 60_000);

    it('many attempts in flight at once: each stream gets exactly its own attempt’s events, in order', async () => {
      const attempts = await Promise.all(Array.from({ length: 12 }, () => newAttempt()));
      const clients = await Promise.all(attempts.flatMap((a) => [open(a), open(a), open(a)]));
      await until(() => clients.every((c) => c.comments.length > 0), 'every stream open');
      const expected = attempts.map((): string[] => []);
      const unrelated = await newAttempt(); // appended to as well, watched by nobody
      for (const type of LIFECYCLE) {
        // Every attempt moves at once, in a different order each round, with another attempt's appends between.
        const order = attempts.map((_, n) => n).sort(() => Math.random() - 0.5);
        await Promise.all(
          order.map(async (n, i) => {
            await sleep(i % 4);
            expected[n].push(await lifecycle(attempts[n], type));
            await lifecycle(unrelated, 'LegPending');
          }),
        );
      }
      await Promise.all(clients.map((c) => c.ended));
      for (const [n, client] of clients.entries()) {
        const attemptId = attempts[Math.floor(n / 3)];
        expect(idsOf(client)).toEqual(expected[Math.floor(n / 3)]);
        expect(client.events.every((e) => JSON.parse(e.data).attemptId === attemptId)).toBe(true);
      }
      expect(readsOf(unrelated)).toBe(0);
    }, 60_000);

    it('a stream opened with Last-Event-ID resumes after that event, then follows live', async () => {
      const attemptId = await newAttempt();
      const first = await lifecycle(attemptId, 'AttemptWalletSubmitted');
      const second = await lifecycle(attemptId, 'AttemptProviderPending');
      const resumed = await open(attemptId, partner, first);
      const [replayed] = await resumed.waitFor(1);
      expect(replayed.id).toBe(second);
      const third = await lifecycle(attemptId, 'AttemptSettled');
      await resumed.ended;
      expect(idsOf(resumed)).toEqual([second, third]);

      const past = await open(attemptId, partner, third);
      await past.ended;
      expect([past.status, past.events]).toEqual([200, []]);
    }, 30_000);

    it('misses no event appended between its catch-up read and its registration with the feed', async () => {
      const attemptId = await newAttempt();
      expect(feed.running).toBe(false); // nothing else open: the registration starts the feed at the log's head
      let racing = '';
      afterCatchUpRead.set(`attempt-${attemptId}`, async () => {
        racing = await lifecycle(attemptId, 'AttemptWalletSubmitted');
      });
      const client = await open(attemptId);
      // Heartbeats come every 15 s and nothing polls: only the read after registering can find it in time.
      const [got] = await client.waitFor(1, 3_000);
      expect(got.id).toBe(racing);
      const next = await lifecycle(attemptId, 'AttemptProviderPending');
      await client.waitFor(2, 3_000);
      expect(idsOf(client)).toEqual([racing, next]);
      client.close();
      await until(() => streams.openStreams === 0, 'the stream to close');
    }, 30_000);

    it('refuses a stream over the partner limit, then over the instance limit, with 429 and Retry-After', async () => {
      const mine = await newAttempt();
      const theirs = await newAttempt(other);
      const held = await Promise.all(Array.from({ length: 100 }, () => open(mine)));
      const overPartner = await open(mine);
      await overPartner.ended;
      held.push(...(await Promise.all(Array.from({ length: 20 }, () => open(theirs, other)))));
      expect(held.every((s) => s.status === 200)).toBe(true);
      const thirdAttempt = await newAttempt(third);
      const overInstance = await open(thirdAttempt, third);
      await overInstance.ended;

      for (const [refused, limit] of [
        [overPartner, 'at most 100 live status streams may be open at once'],
        [overInstance, 'this service instance holds its maximum of 120 live status streams'],
      ] as const) {
        expect([refused.status, JSON.parse(refused.text()).code, refused.headers['retry-after']]).toEqual([
          429,
          'live_stream_limit_reached',
          '5',
        ]);
        expect(JSON.parse(refused.text()).message).toBe(limit);
      }
      held.pop()?.close();
      await until(() => streams.openStreams === 119, 'a slot to free');
      const admitted = await open(thirdAttempt, third);
      expect(admitted.status).toBe(200);
      for (const stream of [...held, admitted]) stream.close();
      await until(() => streams.openStreams === 0 && !feed.running, 'every stream to close');
    }, 60_000);

    it('closes a stream whose client stopped reading; a client that reads gets every event', async () => {
      const attemptId = await newAttempt();
      const reader = await open(attemptId);
      const stalled = await openUnread(t.port, partner, attemptId);
      await until(() => streams.openStreams === 2, 'both streams open');
      // About 10 MB of frames (2.5 kB each): more than twice the socket buffers of a client that reads nothing.
      const ids: string[] = [];
      for (let batch = 0; batch < 8; batch++) {
        const events = Array.from({ length: 500 }, () => ({
          id: randomUUID(),
          type: 'AttemptProviderPending',
          data: { at: Date.now() },
        }));
        ids.push(...events.map((e) => e.id));
        await t.store.append(`attempt-${attemptId}`, events, { expectedRevision: 'any' });
      }
      // The server gives up on it (drainTimeoutMs) while the reader still streams.
      await until(() => streams.openStreams === 1, 'the stalled stream to be closed', 20_000);
      await reader.waitFor(ids.length, 30_000);
      expect(idsOf(reader)).toEqual(ids);
      // A paused socket sees its end only once it reads again: it gets part of the frames, then the close.
      stalled.socket.resume();
      await until(() => stalled.closed, 'the stalled client to see the close');
      expect(stalled.received).toBeLessThan(ids.length * 2_500);
      reader.close();
      await until(() => streams.openStreams === 0, 'the reader to close');
    }, 60_000);

    it('closes every open stream at shutdown, and the feed stops', async () => {
      const attemptId = await newAttempt();
      const clients = await Promise.all([open(attemptId), open(attemptId), open(attemptId)]);
      await until(() => feed.running && streams.openStreams === 3, 'three streams open');
      await t.close();
      await Promise.all(clients.map((c) => c.ended));
      expect([streams.openStreams, feed.watching, feed.running]).toEqual([0, 0, false]);
      t = undefined as unknown as TestApp;
    }, 30_000);
  },
);

/**
 * A signed GET of the live status stream on a raw socket that never reads what the server sends (its receive
 * buffer fills, then the server's): a client that stopped reading.
 */
async function openUnread(
  port: number,
  partner: TestPartner,
  attemptId: string,
): Promise<{ socket: Socket; closed: boolean; received: number }> {
  const { path, headers } = signedLiveStatusGet(partner, attemptId);
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const state = { socket, closed: false, received: 0 };
  socket.on('close', () => (state.closed = true));
  socket.on('data', (chunk: Buffer) => (state.received += chunk.length));
  socket.on('error', () => undefined);
  socket.pause();
  socket.write(
    [
      `GET ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'Accept: text/event-stream',
      '',
      '',
    ].join('\r\n'),
  );
  return state;
}
