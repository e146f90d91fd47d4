import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { type AttemptEvent, attemptDecider, attemptSnapshot, attemptStreamId } from '@svc/domain';
import {
  attemptPrepared,
  authorizationSigned,
  evidenceReported,
  hash,
  legPending,
  prepared,
  providerPending,
  T0,
  walletSubmitted,
} from '@svc/domain/attempt-fixture';
import { type EventStore, SqliteEventStore } from '@svc/event-store';
import { AttemptStatusService } from './attempt-status.service';

const PARTNER = prepared.partnerId;
const chains = new ChainRegistry([]);

/** What the status must be after `events`: folded afresh, no cache involved. */
function foldedStatus(events: readonly AttemptEvent[]) {
  const state = events.reduce(attemptDecider.evolve, attemptDecider.initialState);
  return attemptSnapshot(state as Parameters<typeof attemptSnapshot>[0], {
    chainName: (id) => `chain ${id}`,
  });
}

/** The real SQLite store, counting full stream reads (a cache hit makes none). */
function countingStore(store: SqliteEventStore): { store: EventStore; streamReads: () => number } {
  let reads = 0;
  const counted = Object.create(store) as EventStore;
  counted.readStream = (...args) => {
    reads += 1;
    return store.readStream(...args);
  };
  return { store: counted, streamReads: () => reads };
}

describe('AttemptStatusService over SQLite (a cached status, exactly as fresh as the stream)', () => {
  let dir: string;
  let sqlite: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'attempt-status-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  });

  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = (attemptId: string, events: readonly AttemptEvent[]) =>
    sqlite.append(
      attemptStreamId(attemptId),
      events.map((e) => ({
        id: randomUUID(),
        type: e.type,
        data: e.data as unknown as Record<string, unknown>,
      })),
      { expectedRevision: 'any' },
    );

  it('answers the fold of the stream, reads the stream again only after an append, and shows that append at once', async () => {
    const attemptId = prepared.attemptId;
    const { store, streamReads } = countingStore(sqlite);
    const service = new AttemptStatusService(store, chains);
    const story: AttemptEvent[] = [attemptPrepared];
    await append(attemptId, story);

    const first = await service.status({ partnerId: PARTNER, attemptId });
    const again = await service.status({ partnerId: PARTNER, attemptId });
    expect(first).toEqual({ ok: true, body: foldedStatus(story), resource: null });
    expect(again).toEqual(first);
    expect(streamReads()).toBe(1);

    const next: AttemptEvent[] = [
      evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(1)] }]),
      authorizationSigned(),
      walletSubmitted(),
    ];
    for (const event of next) {
      story.push(event);
      await append(attemptId, [event]);
      const after = await service.status({ partnerId: PARTNER, attemptId });
      expect(after).toEqual({ ok: true, body: foldedStatus(story), resource: null });
    }
    expect(streamReads()).toBe(1 + next.length);
    expect(first).not.toEqual(await service.status({ partnerId: PARTNER, attemptId }));
  });

  it('answers attempt_not_found to another partner, cached or not, and for a missing attempt, and changes nothing', async () => {
    const attemptId = prepared.attemptId;
    const service = new AttemptStatusService(sqlite, chains);
    await append(attemptId, [attemptPrepared]);
    const notFound = { ok: false, code: 'attempt_not_found' };

    await expect(service.status({ partnerId: 'someone-else', attemptId })).resolves.toMatchObject(notFound);
    await expect(service.status({ partnerId: PARTNER, attemptId })).resolves.toMatchObject({ ok: true });
    await expect(service.status({ partnerId: 'someone-else', attemptId })).resolves.toMatchObject(notFound);
    await expect(service.status({ partnerId: PARTNER, attemptId: 'at_missing' })).resolves.toMatchObject(
      notFound,
    );
    expect(await sqlite.readStream(attemptStreamId('at_missing'))).toEqual([]);
    expect(await sqlite.readStreamRevision(attemptStreamId(attemptId))).toBe(0);
  });

  it('with many reads in flight while events are appended, never answers older than the stream was when asked', async () => {
    const attemptId = prepared.attemptId;
    const service = new AttemptStatusService(sqlite, chains);
    const story: AttemptEvent[] = [attemptPrepared];
    await append(attemptId, story);
    const more: AttemptEvent[] = [
      authorizationSigned(),
      walletSubmitted(),
      providerPending(T0 + 20_000),
      legPending('s-eth', T0 + 21_000),
      legPending('s-arb', T0 + 22_000),
      legPending('s-base', T0 + 23_000),
    ];
    // The status after each prefix of the story, by how many events it holds.
    const expected = [story, ...more.map((_, i) => [...story, ...more.slice(0, i + 1)])].map(foldedStatus);
    const distinct = new Set(expected.map((s) => JSON.stringify(s)));
    expect(distinct.size).toBeGreaterThan(3);

    let appended = 1;
    const reads: Promise<void>[] = [];
    for (const event of more) {
      for (let r = 0; r < 8; r++) {
        const atLeast = appended;
        reads.push(
          service.status({ partnerId: PARTNER, attemptId }).then((reply) => {
            expect(reply.ok).toBe(true);
            const body = reply.ok ? JSON.stringify(reply.body) : '';
            const index = expected.findIndex((s) => JSON.stringify(s) === body);
            // An answer is some fold of the stream, at or after the length it had when the read started.
            expect(index).toBeGreaterThanOrEqual(atLeast - 1);
          }),
        );
      }
      await append(attemptId, [event]);
      appended += 1;
    }
    await Promise.all(reads);
    await expect(service.status({ partnerId: PARTNER, attemptId })).resolves.toEqual({
      ok: true,
      body: expected.at(-1),
      resource: null,
    });
  });
});
