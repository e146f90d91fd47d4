import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type WebhookEventRecord, type WebhookRecoverRange } from '@svc/contract';
import { WEBHOOK_STREAM_PREFIX, webhookStreamId } from '@svc/domain';
import { type NewEvent, openReadModelDatabase, SqliteEventStore } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { listWebhookEvents } from '../control/list-webhook-events';
import { WebhookControlService } from '../control/webhook-control.service';
import { WebhookEventsReadModel } from '../control/webhook-events.read-model';
import { idleDispatcher } from '../dispatch/idle-dispatcher.test-helper';
import { decideWebhooks } from '../dispatch/webhook-stream';
import { DEFAULT_WEBHOOKS_OPTIONS } from '../webhooks.options';
import { compactWebhookHistories, type CompactionReport } from './compact-webhook-histories';
import { WebhookHistoryCompactor } from './webhook-history-compactor';
import { partnerRequest } from '../control/partner-request.test-helper';

const DAY = 86_400_000;
const RETENTION_MS = 30 * DAY;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const NOW = T0 + 40 * DAY;
const KINDS = ['wallet_submitted', 'provider_pending', 'settled'] as const;

const OLD_ENDED = 240;
const OLD_RETRYING = 20;
const RECENT = 40;
const STREAMS_PER_PASS = 50;

type Fate = 'delivered' | 'abandoned' | 'retrying';

/**
 * The webhook history compaction over a real SQLite store, through the control plane (docs/webhooks.md "Retention"):
 * streams whose events all ended before the retention are summarised and truncated; streams still retrying, and
 * recent ones, are left whole; attempt streams are never touched. The control plane lists the same events, in the same
 * order, with the same counts, says which histories were compacted, redelivers and recovers them; an index projected
 * again from the truncated log is the same. Two instances at once record each summary once.
 */
describe('webhook history compaction on SQLite', () => {
  let dir: string;
  let file: string;
  const time = new ManualClock(T0);
  const clock = () => new Date(time.now());
  let store: SqliteEventStore;
  let model: WebhookEventsReadModel;
  let service: WebhookControlService;
  const fates = new Map<string, Fate | 'recent'>();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-compaction-'));
    file = join(dir, 'events.sqlite');
    time.set(T0);
    store = SqliteEventStore.open({ file, clock });
    model = new WebhookEventsReadModel(store, openReadModelDatabase(':memory:'));
    service = new WebhookControlService(store, idleDispatcher(store, ['p-a', 'p-b'], time), model);
    fates.clear();
    // Interleaved as a busy log is: old ended, old retrying, an attempt stream between them.
    for (let i = 0; i < OLD_ENDED + OLD_RETRYING; i++) {
      const fate: Fate = i >= OLD_ENDED ? 'retrying' : i % 10 === 0 ? 'abandoned' : 'delivered';
      await history(`at_old${i}`, T0 + i * 60_000, fate, i === 7 ? 40 : 2);
      await store.append(`attempt-at_old${i}`, [event('AttemptSettled', { at: T0 })], {
        expectedRevision: 'any',
      });
    }
    for (let i = 0; i < RECENT; i++) await history(`at_new${i}`, NOW - DAY + i * 60_000, 'delivered', 2);
    time.set(NOW);
  });
  afterEach(async () => {
    await model.onModuleDestroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function event(type: string, data: Record<string, unknown>): NewEvent {
    return { id: randomUUID(), type, data };
  }

  /** An attempt's three webhooks queued at `at`, each tried `tries` times, recorded at `at` by the store's clock. */
  async function history(attemptId: string, at: number, fate: Fate, tries: number): Promise<void> {
    time.set(at);
    fates.set(attemptId, at >= NOW - 2 * DAY ? 'recent' : fate);
    const partnerId = Number(attemptId.replace(/\D/g, '')) % 3 === 0 ? 'p-b' : 'p-a';
    const events: NewEvent[] = [];
    KINDS.forEach((kind, n) => {
      const eventId = `${attemptId}-${n}`;
      events.push(
        event('WebhookQueued', {
          eventId,
          event: kind,
          attemptId,
          partnerId,
          lifecycleRevision: n + 1,
          occurredAt: at + n,
          queuedAt: at + n,
        }),
      );
      for (let t = 1; t < tries; t++)
        events.push(
          event('WebhookAttempted', {
            eventId,
            attempt: t,
            at: at + n + t,
            httpStatus: 503,
            error: 'HTTP 503',
            nextAttemptAt: at + n + t + 1,
            latencyMs: 4,
          }),
        );
      const last = at + n + tries;
      const lastOfAll = n === KINDS.length - 1;
      if (fate === 'abandoned' && lastOfAll)
        events.push(
          event('WebhookAbandoned', { eventId, attempt: tries, at: last, reason: 'gone', httpStatus: 410 }),
        );
      else if (fate === 'retrying' && lastOfAll)
        events.push(
          event('WebhookAttempted', {
            eventId,
            attempt: tries,
            at: last,
            httpStatus: null,
            error: 'timeout',
            nextAttemptAt: last + 5 * 3_600_000,
          }),
        );
      else
        events.push(
          event('WebhookDelivered', { eventId, attempt: tries, at: last, httpStatus: 200, latencyMs: 6 }),
        );
    });
    await store.append(webhookStreamId(attemptId), events, { expectedRevision: 'no_stream' });
  }

  async function listAll(
    partnerId: string,
    on: WebhookEventsReadModel = model,
  ): Promise<{ events: WebhookEventRecord[]; cursors: string[] }> {
    const events: WebhookEventRecord[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await listWebhookEvents(store, on, partnerId, cursor);
      if (page === null) throw new Error('cursor refused');
      events.push(...page.events);
      cursors.push(page.nextCursor);
      cursor = page.nextCursor;
      if (!page.hasMore) return { events, cursors };
    }
  }

  /** Passes until one finds nothing more to do now; every pass's work stays within its bound. */
  async function compactAll(on: SqliteEventStore = store): Promise<CompactionReport[]> {
    const reports: CompactionReport[] = [];
    for (let pass = 0; pass < 50; pass++) {
      const report = await compactWebhookHistories(on, {
        now: time.now(),
        retentionMs: RETENTION_MS,
        maxStreams: STREAMS_PER_PASS,
      });
      reports.push(report);
      const looked = Object.values(report.streams).reduce((a, b) => a + b, 0);
      expect(looked).toBeLessThanOrEqual(STREAMS_PER_PASS);
      if (report.idleUntil !== null) return reports;
    }
    throw new Error('the compaction never went idle');
  }

  const streamOf = (attemptId: string) => store.readStream(webhookStreamId(attemptId));
  const sum = (reports: CompactionReport[], key: keyof CompactionReport['streams']) =>
    reports.reduce((n, r) => n + r.streams[key], 0);

  it('compacts only the old ended streams, bounded per pass; the control plane lists the same events and says so', async () => {
    const before = { a: await listAll('p-a'), b: await listAll('p-b') };
    const eventsBefore = (await store.readAll({ streamPrefixes: [WEBHOOK_STREAM_PREFIX] })).length;

    const started = performance.now();
    const reports = await compactAll();
    const elapsedMs = performance.now() - started;
    const eventsAfter = (await store.readAll({ streamPrefixes: [WEBHOOK_STREAM_PREFIX] })).length;
    process.stdout.write(
      `compaction: ${OLD_ENDED + OLD_RETRYING + RECENT} webhook streams, ${reports.length} passes of at most ` +
        `${STREAMS_PER_PASS} streams in ${elapsedMs.toFixed(0)} ms (${(elapsedMs / reports.length).toFixed(0)} ms a pass); ` +
        `webhook events ${eventsBefore} -> ${eventsAfter}\n`,
    );

    // Then: every old stream whose events all ended is one summary; the others are whole.
    expect(sum(reports, 'compacted')).toBe(OLD_ENDED);
    expect(sum(reports, 'malformed') + sum(reports, 'unknown_types')).toBe(0);
    for (const [attemptId, fate] of fates) {
      const stream = await streamOf(attemptId);
      if (fate === 'delivered' || fate === 'abandoned')
        expect(stream.map((e) => e.type)).toEqual(['WebhookHistoryCompacted']);
      else expect(stream.map((e) => e.type)).not.toContain('WebhookHistoryCompacted');
    }
    expect(await streamOf('at_old7')).toHaveLength(1); // 3 events of 40 tries each, now one summary
    // Attempt streams are never touched.
    expect(await store.readAll({ streamPrefixes: ['attempt-'] })).toHaveLength(OLD_ENDED + OLD_RETRYING);

    // The control plane: the same events in the same order, statuses and counts; compacted ones say so, no tries.
    for (const partner of ['a', 'b'] as const) {
      const after = await listAll(`p-${partner}`);
      expect(after.events.map((e) => e.eventId)).toEqual(before[partner].events.map((e) => e.eventId));
      after.events.forEach((now, i) => {
        const was = before[partner].events[i];
        const fate = fates.get(now.attemptId);
        const compacted = fate === 'delivered' || fate === 'abandoned';
        const { deliveries: _d, deliveriesOmitted: _o, historyCompacted: _h, ...kept } = was;
        expect(now).toMatchObject(kept);
        expect(now.historyCompacted).toBe(compacted);
        expect(now.deliveries).toEqual(compacted ? [] : was.deliveries);
        expect(now.deliveriesOmitted).toBe(compacted ? was.deliveryCount : was.deliveriesOmitted);
      });
      // A cursor issued before the compaction reads on as it did.
      const [firstCursor] = before[partner].cursors;
      const page = await listWebhookEvents(store, model, `p-${partner}`, firstCursor);
      expect(page?.events.map((e) => e.eventId)).toEqual(
        before[partner].events.slice(100, 200).map((e) => e.eventId),
      );
    }
    const long = (await listAll('p-a')).events.find((e) => e.attemptId === 'at_old7');
    expect(long).toMatchObject({
      deliveryCount: 40,
      deliveriesOmitted: 40,
      historyCompacted: true,
      deliveries: [],
    });

    // An index projected again from the truncated log is the same.
    const rebuilt = new WebhookEventsReadModel(store, openReadModelDatabase(':memory:'));
    try {
      for (const partner of ['p-a', 'p-b'])
        expect(await listAll(partner, rebuilt)).toEqual(await listAll(partner));
    } finally {
      await rebuilt.onModuleDestroy();
    }

    // Run again: nothing to do, nothing appended.
    const head = (await store.readAll({})).length;
    expect((await compactAll()).flatMap((r) => (r.streams.compacted > 0 ? [r] : []))).toEqual([]);
    expect((await store.readAll({})).length).toBe(head);
    // Once the summaries are old themselves: the recent streams' turn; the summaries stay as they are (the retrying
    // streams, with nothing new, are not looked at again).
    time.advance(RETENTION_MS + 2 * 3_600_000);
    const later = await compactAll();
    expect([sum(later, 'compacted'), sum(later, 'truncated')]).toEqual([RECENT, 0]);
    expect(sum(later, 'kept')).toBe(OLD_ENDED);
  }, 60_000);

  it('redelivers, recovers and never queues twice a compacted event; it is compacted again later', async () => {
    await compactAll();
    const request = <B>(resourceId: string | null, body: B) =>
      partnerRequest('p-a', body, { resourceId, receivedAt: time.now() });

    // Redeliver one compacted event: a new pass, its body rebuilt from the attempt stream (never truncated).
    const redelivered = await service.redeliver(request('at_old1-2', null));
    expect(redelivered).toMatchObject({
      ok: true,
      body: { action: 'redelivery_queued', attemptId: 'at_old1' },
    });
    // The relay handing the lifecycle event over again: nothing is queued twice.
    expect(
      await decideWebhooks(store, 'at_old1', 'queue:at_old1-0', {
        type: 'QueueWebhook',
        data: {
          eventId: 'at_old1-0',
          event: 'wallet_submitted',
          attemptId: 'at_old1',
          partnerId: 'p-a',
          lifecycleRevision: 1,
          occurredAt: T0 + 60_000,
          now: time.now(),
        },
      }),
    ).toEqual([]);

    // Recover a range entirely before the retention horizon: its ended events are sent again, compacted or not.
    const range: WebhookRecoverRange = { from: T0, to: T0 + 30 * 60_000 };
    const recovered = await service.recover(request(null, range));
    if (!recovered.ok) throw new Error(recovered.message);
    const attempts = [...new Set(recovered.body.recovered.map((e) => e.attemptId))];
    const expected = [...fates]
      .filter(([id, fate]) => fate !== 'recent' && fate !== 'retrying' && Number(id.slice(6)) < 30)
      .map(([id]) => id)
      .filter((id) => Number(id.slice(6)) % 3 !== 0); // p-a's
    expect(attempts.sort()).toEqual(expected.sort());
    expect(recovered.body.rateLimited).toBeUndefined();

    // The new passes end (the redelivery's, the recovery's); after the retention it is compacted again, its counts
    // carried on.
    await store.append(
      webhookStreamId('at_old1'),
      [0, 1, 2].map((n) =>
        event('WebhookDelivered', {
          eventId: `at_old1-${n}`,
          attempt: 1,
          at: time.now() + 5,
          httpStatus: 200,
        }),
      ),
      { expectedRevision: 'any' },
    );
    const listed = async () => (await listAll('p-a')).events.find((e) => e.eventId === 'at_old1-2');
    expect(await listed()).toMatchObject({ deliveryCount: 3, deliveriesOmitted: 2, historyCompacted: true });
    time.advance(RETENTION_MS + 2 * 3_600_000);
    await compactAll();
    expect((await streamOf('at_old1')).map((e) => e.type)).toEqual(['WebhookHistoryCompacted']);
    expect(await listed()).toMatchObject({ deliveryCount: 3, deliveriesOmitted: 3, deliveries: [] });
  }, 60_000);

  it('two instances compacting at once record each summary once', async () => {
    const other = SqliteEventStore.open({ file, clock });
    try {
      const [one, two] = await Promise.all([compactAll(store), compactAll(other)]);
      expect(sum(one, 'compacted') + sum(two, 'compacted')).toBeGreaterThanOrEqual(OLD_ENDED);
      const summaries = (await store.readAll({ streamPrefixes: [WEBHOOK_STREAM_PREFIX] })).filter(
        (e) => e.type === 'WebhookHistoryCompacted',
      );
      expect(summaries).toHaveLength(OLD_ENDED);
      expect(new Set(summaries.map((e) => e.streamId)).size).toBe(OLD_ENDED);
      for (const [attemptId, fate] of fates)
        if (fate === 'delivered' || fate === 'abandoned') expect(await streamOf(attemptId)).toHaveLength(1);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('is leased: of two compactors on one store, one works', async () => {
    const compactor = (instanceId: string) =>
      new WebhookHistoryCompactor(
        store,
        time,
        {
          ...DEFAULT_WEBHOOKS_OPTIONS,
          history: { retentionDays: 30, compactEveryMs: 0, streamsPerPass: 1_000 },
        },
        { instanceId, shardCount: 4, leaseTtlMs: 15_000 },
      );
    const [one, two] = [compactor('one'), compactor('two')];
    await one.onApplicationBootstrap();
    await two.onApplicationBootstrap();
    try {
      const reports = await Promise.all([one.tick(), two.tick()]);
      expect(reports.filter((r) => r === null)).toHaveLength(1);
      // One pass: bounded by the events it reads from the log (1 000), not all the old streams at once.
      expect(reports.find((r) => r !== null)?.streams.compacted).toBeGreaterThan(0);
    } finally {
      await one.onApplicationShutdown();
      await two.onApplicationShutdown();
    }
  }, 60_000);
});
