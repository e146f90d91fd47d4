import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type RecoveredWebhookEvent,
  WEBHOOK_CONTROL_LIMITS,
  validateWebhookRecoverRequest,
  type WebhookRecoverRange,
  type WebhookRecoverResponse,
} from '@svc/contract';
import { WEBHOOK_STREAM_PREFIX, webhookStreamId } from '@svc/domain';
import { SqliteEventStore, openReadModelDatabase } from '@svc/event-store';
import { type FeatureRequest, type ResourceRef } from '@svc/messaging';
import { ManualClock } from '@svc/testing';
import { idleDispatcher } from '../dispatch/idle-dispatcher.test-helper';
import { WebhookControlService } from './webhook-control.service';
import { WebhookEventsReadModel } from './webhook-events.read-model';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const FROM = new Date(T0).toISOString();
const TO = new Date(T0 + 86_400_000).toISOString();
const CAP = WEBHOOK_CONTROL_LIMITS.maxRecoverAttemptsPerCall;
type Page = Omit<WebhookRecoverResponse, 'apiVersion'>;

/**
 * POST /webhooks/recover over the SQLite store (security review N-M10): a call recovers at most
 * maxRecoverAttemptsPerCall attempts and answers a continuation; the pages take every attempt once, ties on
 * occurredAt and events queued meanwhile included; a replay answers the same page and appends nothing.
 */
describe('WebhookControlService.recover on SQLite', () => {
  let dir: string;
  let store: SqliteEventStore;
  let model: WebhookEventsReadModel;
  let service: WebhookControlService;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-recover-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    model = new WebhookEventsReadModel(store, openReadModelDatabase(':memory:'));
    // Never ticked, so it holds no shard and delivers nothing: the redeliveries stay queued in the streams.
    const dispatcher = idleDispatcher(store, ['p-a'], new ManualClock(T0 + 90_000_000));
    service = new WebhookControlService(store, dispatcher, model);
  });
  afterEach(async () => {
    await model.onModuleDestroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An attempt whose lifecycle events (one per time, in order) were queued and delivered: one append. */
  async function delivered(partnerId: string, attemptId: string, times: number[]): Promise<void> {
    const kinds = ['wallet_submitted', 'provider_pending', 'settled'] as const;
    await store.append(
      webhookStreamId(attemptId),
      times.flatMap((occurredAt, revision) => {
        const eventId = `${attemptId}-${revision}`;
        return [
          {
            id: randomUUID(),
            type: 'WebhookQueued',
            data: {
              eventId,
              event: kinds[revision],
              attemptId,
              partnerId,
              lifecycleRevision: revision,
              occurredAt,
              queuedAt: occurredAt,
            },
          },
          {
            id: randomUUID(),
            type: 'WebhookDelivered',
            data: { eventId, attempt: 1, at: occurredAt + 50, httpStatus: 200, latencyMs: 5 },
          },
        ];
      }),
      { expectedRevision: 'any' },
    );
  }

  let keys = 0;
  /** A recover request as the gateway hands it over (validated body); `key` repeats a request. */
  async function recover(
    continuation?: string,
    key = `key-${++keys}`,
    replayOf: ResourceRef | null = null,
  ): Promise<{ page: Page; resource: ResourceRef | null }> {
    const body = validateWebhookRecoverRequest({
      from: FROM,
      to: TO,
      ...(continuation ? { continuation } : {}),
    });
    if (!body.ok) throw new Error(JSON.stringify(body.errors));
    const request: FeatureRequest<WebhookRecoverRange> = {
      partnerId: 'p-a',
      requestId: randomUUID(),
      idempotencyKey: key,
      resourceId: null,
      replayOf,
      body: body.value,
      receivedAt: T0 + 90_000_000,
    };
    const reply = await service.recover(request);
    if (!reply.ok) throw new Error(reply.message);
    return { page: reply.body, resource: reply.resource };
  }

  /** Every page from the first, following the continuation; `between` runs before each next page. */
  async function allPages(
    between: (page: number) => Promise<void> = () => Promise.resolve(),
  ): Promise<Page[]> {
    const pages: Page[] = [];
    let continuation: string | undefined;
    do {
      const { page } = await recover(continuation);
      pages.push(page);
      continuation = page.continuation;
      await between(pages.length);
    } while (continuation !== undefined);
    return pages;
  }

  const redeliveries = async () =>
    (await store.readAll({ streamPrefixes: [WEBHOOK_STREAM_PREFIX] })).filter(
      (e) => e.type === 'WebhookRedeliveryRequested',
    ).length;
  const attemptsOf = (recovered: RecoveredWebhookEvent[]) => [...new Set(recovered.map((r) => r.attemptId))];

  it(`recovers at most ${CAP} attempts per call and answers a continuation for the rest`, async () => {
    // Given: more than twice the cap of the partner's attempts in the range, and another partner's.
    const total = 2 * CAP + 37;
    for (let i = 0; i < total; i++) await delivered('p-a', `at_a${i}`, [T0 + i * 10, T0 + i * 10 + 5]);
    for (let i = 0; i < 20; i++) await delivered('p-b', `at_b${i}`, [T0 + i]);

    const started = performance.now();
    const { page } = await recover();
    const tookMs = performance.now() - started;
    process.stdout.write(`recover: one call at the cap (${CAP} attempts, SQLite): ${tookMs.toFixed(0)} ms\n`);

    // Then: the first attempts in time order, each with both events, and only their redeliveries appended.
    expect(attemptsOf(page.recovered)).toEqual(Array.from({ length: CAP }, (_, i) => `at_a${i}`));
    expect(page.recovered).toHaveLength(2 * CAP);
    expect(await redeliveries()).toBe(2 * CAP);
    expect(page.continuation).toEqual(expect.any(String));

    const rest = [page];
    while (rest.at(-1)!.continuation !== undefined)
      rest.push((await recover(rest.at(-1)!.continuation)).page);
    expect(rest.map((p) => attemptsOf(p.recovered).length)).toEqual([CAP, CAP, 37]);
    expect(rest.at(-1)!.continuation).toBeUndefined();
    expect(await redeliveries()).toBe(2 * total);
  });

  it('takes every attempt once over the pages, ties on occurredAt and events queued meanwhile included', async () => {
    // Given: each attempt's first event at one of 40 times (ties across pages), its second one hours later (so the
    // pages meet every attempt a second time), and attempts with an event only outside the range.
    const total = CAP + 300;
    const firstAt = (i: number) => T0 + (i % 40) * 1000;
    for (let i = 0; i < total; i++) await delivered('p-a', `at_a${i}`, [firstAt(i), T0 + 3_600_000 + i]);
    for (let i = 0; i < 5; i++) await delivered('p-a', `at_out${i}`, [T0 - 1000, T0 + 86_400_000]);
    const known = Array.from({ length: total }, (_, i) => `at_a${i}`);

    // Between the pages: new attempts at the very times of the first attempts (ties), before them and after them,
    // and a new event of an attempt the first page took, at its first time.
    const pages = await allPages(async (page) => {
      await delivered('p-a', `at_new${page}a`, [T0 + 20_000]);
      await delivered('p-a', `at_new${page}b`, [T0 + 500]);
      await delivered('p-a', `at_new${page}c`, [T0 + 7_200_000]);
      if (page === 1)
        await store.append(
          webhookStreamId('at_a0'),
          [
            {
              id: randomUUID(),
              type: 'WebhookQueued',
              data: {
                eventId: 'at_a0-2',
                event: 'settled',
                attemptId: 'at_a0',
                partnerId: 'p-a',
                lifecycleRevision: 2,
                occurredAt: firstAt(0),
                queuedAt: firstAt(0),
              },
            },
          ],
          { expectedRevision: 'any' },
        );
    });

    // Then: every attempt queued before the first page exactly once, none queued after it.
    const recovered = pages.flatMap((p) => p.recovered);
    const byPage = pages.map((p) => attemptsOf(p.recovered));
    expect(byPage.every((attempts) => attempts.length <= CAP)).toBe(true);
    expect(byPage.flat().sort()).toEqual([...known].sort());
    // Each attempt's events together, in lifecycle order; every event once.
    for (const attemptId of known)
      expect(recovered.filter((r) => r.attemptId === attemptId).map((r) => r.eventId)).toEqual([
        `${attemptId}-0`,
        `${attemptId}-1`,
      ]);
    expect(recovered).toHaveLength(2 * total);
    expect(await redeliveries()).toBe(2 * total);
    // The first page: the attempts whose first event is earliest (by time, ties in log order), listed in log order.
    const n = (attemptId: string) => Number(attemptId.slice('at_a'.length));
    const earliest = [...known].sort((a, b) => firstAt(n(a)) - firstAt(n(b)) || n(a) - n(b)).slice(0, CAP);
    expect(byPage[0]).toEqual(earliest.sort((a, b) => n(a) - n(b)));
  });

  it('answers a replay with the same page and appends nothing, also after events were queued', async () => {
    for (let i = 0; i < CAP + 10; i++) await delivered('p-a', `at_a${i}`, [T0 + (i % 7)]);
    const first = await recover(undefined, 'page-1');
    const second = await recover(first.page.continuation, 'page-2');
    expect(attemptsOf(second.page.recovered)).toHaveLength(10);
    // Events queued since, at the very times of the pages.
    for (let i = 0; i < 30; i++) await delivered('p-a', `at_late${i}`, [T0 + (i % 7)]);
    const head = (await store.readAll({})).length;

    expect((await recover(undefined, 'page-1', first.resource)).page).toEqual(first.page);
    expect((await recover(first.page.continuation, 'page-2', second.resource)).page).toEqual(second.page);
    expect((await store.readAll({})).length).toBe(head);
  });

  it('answers an empty page without a continuation when nothing is in the range', async () => {
    expect((await recover()).page).toEqual({ from: FROM, to: TO, recovered: [] });
    await delivered('p-b', 'at_b0', [T0]);
    const first = await recover(undefined, 'empty');
    expect(first.page).toEqual({ from: FROM, to: TO, recovered: [] });
    await delivered('p-a', 'at_a0', [T0]);
    expect((await recover(undefined, 'empty', first.resource)).page).toEqual(first.page);
  });
});
