import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import {
  type AttemptEvent,
  attemptDecider,
  type AttemptRecord,
  attemptSnapshot,
  attemptStreamId,
  webhookBody,
} from '@svc/domain';
import {
  attemptPrepared,
  authorizationSigned,
  evidenceReported,
  filled,
  hash,
  legPending,
  observeLeg,
  prepared,
  providerPending,
  T0,
  walletSubmitted,
} from '@svc/domain/attempt-fixture';
import {
  aggregateStream,
  MalformedEventError,
  reportStoredEventProblemsTo,
  resetStoredEventProblems,
  type StoredEventProblem,
  SqliteEventStore,
} from '@svc/event-store';
import { decideAndAppend, loadAttempt } from '../attempt-store/attempt-stream';
import { AttemptStatusService } from './attempt-status.service';

const PARTNER = prepared.partnerId;
const ATTEMPT = prepared.attemptId;
const names = { chainName: (id: number) => `chain ${id}` };

/** A stored event as a newer build writes it: a type this build has never heard of. */
interface NewerEvent {
  type: string;
  data: Record<string, unknown>;
}

const fold = (events: readonly AttemptEvent[]) =>
  events.reduce(attemptDecider.evolve, attemptDecider.initialState) as AttemptRecord;

/**
 * A rolling deploy: a newer build appends to an attempt stream an event type this build lacks, between real events
 * of the attempt, and this build must still serve the attempt as if that event were not there.
 */
describe('an attempt stream holding event types of a newer build, read by this one (real SQLite)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let told: StoredEventProblem[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rolling-upgrade-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    resetStoredEventProblems();
    told = [];
    reportStoredEventProblemsTo((problem) => told.push(problem));
  });

  afterEach(async () => {
    reportStoredEventProblemsTo(null);
    resetStoredEventProblems();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = (attemptId: string, events: readonly (AttemptEvent | NewerEvent)[]) =>
    store.append(
      attemptStreamId(attemptId),
      events.map((e) => ({ id: randomUUID(), type: e.type, data: { ...e.data } })),
      { expectedRevision: 'any' },
    );

  // Revisions: 0 prepared, 1 evidence, 2 (newer), 3 signed, 4 wallet_submitted, 5 provider_pending, 6 (newer), 7 leg.
  const known: AttemptEvent[] = [
    attemptPrepared,
    evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(1), hash(2)] }]),
    authorizationSigned(),
    walletSubmitted(),
    providerPending(T0 + 20_000),
    legPending('s-eth', T0 + 21_000),
  ];
  const newer: NewerEvent[] = [
    { type: 'FutureThing', data: { note: 'written by a newer build' } },
    { type: 'LegRouteChanged', data: { sliceId: 's-eth', route: ['relay', 'hop'], at: T0 + 20_500 } },
  ];
  const stored: (AttemptEvent | NewerEvent)[] = [
    known[0],
    known[1],
    newer[0],
    known[2],
    known[3],
    known[4],
    newer[1],
    known[5],
  ];

  it("serves the attempt's status as the fold of the events it knows", async () => {
    await append(ATTEMPT, stored);
    const service = new AttemptStatusService(store, new ChainRegistry([]));
    const reply = await service.status({ partnerId: PARTNER, attemptId: ATTEMPT });
    expect(reply).toEqual({ ok: true, body: attemptSnapshot(fold(known), names), resource: null });
  });

  it('folds it for the tracker, which goes on deciding and appending on it', async () => {
    await append(ATTEMPT, stored);
    const loaded = await loadAttempt(store, ATTEMPT, null);
    expect(loaded).toEqual({ record: fold(known), revision: stored.length - 1 });

    const after = await decideAndAppend(
      store,
      ATTEMPT,
      'observe-s-eth',
      observeLeg('s-eth', filled('1000000000'), T0 + 30_000),
    );
    expect(after?.slices.find((s) => s.sliceId === 's-eth')).toMatchObject({
      status: 'settled',
      settledAmount: '1000000000',
    });
    expect((await loadAttempt(store, ATTEMPT, null))?.record).toEqual(after);
  });

  it('builds the webhook body of a lifecycle event after a newer event as if that event were not there', async () => {
    await append(ATTEMPT, stored);
    const providerPendingRevision = stored.indexOf(known[4]);
    const { state } = await aggregateStream(store, attemptStreamId(ATTEMPT), attemptDecider, {
      maxCount: providerPendingRevision + 1,
    });
    const meta = { eventId: 'ev-pp', event: 'provider_pending' as const, occurredAt: T0 + 20_000 };
    const body = webhookBody(state, meta, names);
    expect(body).not.toBeNull();
    expect(body).toBe(webhookBody(fold(known.slice(0, 5)), meta, names));
  });

  it('logs each unknown type once, however many reads of however many attempts meet it', async () => {
    const other = { ...prepared, attemptId: 'at_2' };
    await append(ATTEMPT, stored);
    await append('at_2', [{ type: 'AttemptPrepared', data: other }, newer[0]]);
    const service = new AttemptStatusService(store, new ChainRegistry([]));
    for (const attemptId of [ATTEMPT, 'at_2', ATTEMPT]) {
      await expect(service.status({ partnerId: PARTNER, attemptId })).resolves.toMatchObject({ ok: true });
      await loadAttempt(store, attemptId, null);
    }
    expect(told.map((p) => [p.kind, p.decider, p.type])).toEqual([
      ['unknown_type', 'attempt', 'FutureThing'],
      ['unknown_type', 'attempt', 'LegRouteChanged'],
    ]);
  });

  it('refuses only the attempt holding a malformed event, with a MalformedEventError naming it', async () => {
    const bad = { ...prepared, attemptId: 'at_bad' };
    await append(ATTEMPT, stored);
    await append('at_bad', [
      { type: 'AttemptPrepared', data: bad },
      { type: 'EvidenceReported', data: { reportId: 'r1', reportedAt: T0, submittedAt: null } },
    ]);
    const service = new AttemptStatusService(store, new ChainRegistry([]));

    const refused = service.status({ partnerId: PARTNER, attemptId: 'at_bad' });
    await expect(refused).rejects.toThrow(MalformedEventError);
    await expect(refused).rejects.toMatchObject({
      streamId: attemptStreamId('at_bad'),
      revision: 1,
      type: 'EvidenceReported',
    });
    await expect(loadAttempt(store, 'at_bad', null)).rejects.toThrow(MalformedEventError);
    await expect(service.status({ partnerId: PARTNER, attemptId: ATTEMPT })).resolves.toEqual({
      ok: true,
      body: attemptSnapshot(fold(known), names),
      resource: null,
    });
    expect(told).toContainEqual(
      expect.objectContaining({ kind: 'malformed', streamId: attemptStreamId('at_bad'), revision: 1 }),
    );
  });
});
